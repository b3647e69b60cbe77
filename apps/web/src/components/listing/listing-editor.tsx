import type * as React from 'react';
import { useId } from 'react';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/input';
import { parseTags } from '@/lib/listing';
import { ListingProblems } from './listing-problems';

/** The listing's text as the seller edits it: tags stay the typed text until it is used (`parseTags`). */
export type ListingText = { title: string; description: string; tagsText: string };

type Props = {
  value: ListingText;
  onChange: (patch: Partial<ListingText>) => void;
  /** What breaks the target marketplace's rules (`listingProblems`), shown under the fields. */
  problems: string[];
  /** Copy buttons for title, description and tags, and the tag count (the simple flow, spec section 2). */
  copyable?: boolean;
  tagsLabel?: string;
  /** A line under the tags field (the wizard's 'Separate tags with commas.'). */
  tagsHint?: string;
  tagsPlaceholder?: string;
  tagsRef?: React.Ref<HTMLInputElement>;
  descriptionRows?: number;
  /** Fields of the listing beyond its text (the simple flow's price and variants), above the problems. */
  children?: React.ReactNode;
};

/** Title, description and tags of a listing: the editor of both create flows (Generate Content, the wizard's Details). */
export function ListingEditor({
  value,
  onChange,
  problems,
  copyable = false,
  tagsLabel = 'Tags',
  tagsHint,
  tagsPlaceholder,
  tagsRef,
  descriptionRows = 7,
  children,
}: Props) {
  const id = useId();
  const tags = parseTags(value.tagsText);
  const titleField = (
    <label className="block min-w-0 flex-1 space-y-1 text-sm font-medium">
      <span>Title</span>
      <input className={inputClass} value={value.title} onChange={(e) => onChange({ title: e.target.value })} />
    </label>
  );
  const description = (
    <textarea
      id={`${id}-description`}
      className={inputClass}
      rows={descriptionRows}
      value={value.description}
      onChange={(e) => onChange({ description: e.target.value })}
    />
  );
  return (
    <div className="space-y-4" data-testid="listing-editor">
      {copyable ? (
        <div className="flex items-end gap-1">
          {titleField}
          <CopyButton value={value.title} label="Title" />
        </div>
      ) : (
        titleField
      )}
      {copyable ? (
        <>
          <div className="flex items-center justify-between">
            <span className="text-sm font-medium">Description</span>
            <CopyButton value={value.description} label="Description" />
          </div>
          <label className="block space-y-1 text-sm font-medium" htmlFor={`${id}-description`}>
            <span className="sr-only">Description</span>
            {description}
          </label>
        </>
      ) : (
        <label className="block space-y-1 text-sm font-medium" htmlFor={`${id}-description`}>
          <span>Description</span>
          {description}
        </label>
      )}
      <div className="space-y-1">
        <label className="block space-y-1 text-sm font-medium">
          <span>{tagsLabel}</span>
          <input
            ref={tagsRef}
            className={inputClass}
            value={value.tagsText}
            placeholder={tagsPlaceholder}
            onChange={(e) => onChange({ tagsText: e.target.value })}
          />
        </label>
        {tagsHint && <p className="text-xs text-slate-500">{tagsHint}</p>}
        {copyable && (
          <div className="flex items-center justify-between">
            <p className="text-xs text-slate-500">{tags.length} tags</p>
            <CopyButton value={tags.join(', ')} label="Tags" />
          </div>
        )}
      </div>
      {children}
      <ListingProblems problems={problems} />
    </div>
  );
}
