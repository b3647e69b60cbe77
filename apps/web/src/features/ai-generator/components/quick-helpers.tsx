import { Loader2, Wand2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { textErrorMessage } from '../ai-errors';
import { useGenerateDescription } from '../api/generate-description';
import { useGenerateTags } from '../api/generate-tags';
import { useGenerateTitle } from '../api/generate-title';
import { TagList } from './tag-list';

/** One labelled text field of the helpers (`wide` takes the rest of its row). */
function HelperField({
  label,
  value,
  onChange,
  placeholder,
  wide = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  wide?: boolean;
}) {
  return (
    <label className={`block ${wide ? 'flex-1 ' : ''}space-y-1 text-sm font-medium`}>
      <span>{label}</span>
      <input
        className={inputClass}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
      />
    </label>
  );
}

/** A helper's Generate button: a wand, or a spinner while its call runs. */
function GenerateButton({
  pending,
  disabled,
  onClick,
  children,
}: {
  pending: boolean;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button variant="outline" disabled={disabled} onClick={onClick}>
      {pending ? <Loader2 className="animate-spin" /> : <Wand2 />}
      {children}
    </Button>
  );
}

/**
 * The quick helpers (spec section 7: generate-title, generate-description, generate-tags), one credit each. They
 * chain: a generated title fills the title the description and tags are written for.
 */
export function QuickHelpers() {
  const [topic, setTopic] = useState('');
  const [style, setStyle] = useState('');
  const [audience, setAudience] = useState('');
  const [title, setTitle] = useState('');
  const [details, setDetails] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const titleCall = useGenerateTitle();
  const descriptionCall = useGenerateDescription();
  const tagsCall = useGenerateTags();

  const failed = (what: 'title' | 'description' | 'tags') => (failure: unknown) => {
    setError(textErrorMessage(failure, what));
    toast({
      title: 'Generation Failed',
      description: 'Unable to generate AI content. Please try again.',
      variant: 'destructive',
    });
  };
  const busy = titleCall.isPending || descriptionCall.isPending || tagsCall.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Quick Helpers</CardTitle>
        <CardDescription>Write just a title, a description or tags.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-3">
          <HelperField label="Topic" value={topic} onChange={setTopic} placeholder="e.g. space cat" />
          <HelperField label="Helper style" value={style} onChange={setStyle} placeholder="e.g. playful" />
          <HelperField label="Helper audience" value={audience} onChange={setAudience} placeholder="e.g. gamers" />
        </div>
        <GenerateButton
          pending={titleCall.isPending}
          disabled={busy || !topic.trim()}
          onClick={() => {
            setError(null);
            titleCall.mutate(
              { topic: topic.trim(), style, audience },
              { onSuccess: (r) => setTitle(r.title), onError: failed('title') },
            );
          }}
        >
          Generate Title
        </GenerateButton>

        <div className="space-y-1">
          <div className="flex items-center justify-between">
            <label htmlFor="quick-title" className="text-sm font-medium">
              Helper title
            </label>
            {title && <CopyButton value={title} label="Title" />}
          </div>
          <input id="quick-title" className={inputClass} value={title} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <HelperField
          label="Details for the description"
          value={details}
          onChange={setDetails}
          placeholder="e.g. a cat floating past Saturn"
        />
        <GenerateButton
          pending={descriptionCall.isPending}
          disabled={busy || !title.trim()}
          onClick={() => {
            setError(null);
            descriptionCall.mutate(
              { title: title.trim(), style, details },
              { onSuccess: (r) => setDescription(r.description), onError: failed('description') },
            );
          }}
        >
          Generate Description
        </GenerateButton>
        {description && (
          <div className="space-y-1">
            <div className="flex items-center justify-between">
              <span className="text-sm font-medium">Helper description</span>
              <CopyButton value={description} label="Description" />
            </div>
            <p className="whitespace-pre-line rounded-md bg-slate-50 p-3 text-sm" data-testid="quick-description">
              {description}
            </p>
          </div>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <HelperField label="Category" wide value={category} onChange={setCategory} placeholder="e.g. Mugs" />
          <GenerateButton
            pending={tagsCall.isPending}
            disabled={busy || !title.trim()}
            onClick={() => {
              setError(null);
              tagsCall.mutate(
                { title: title.trim(), description, category },
                { onSuccess: (r) => setTags(r.tags), onError: failed('tags') },
              );
            }}
          >
            Generate Tags
          </GenerateButton>
        </div>
        {tags.length > 0 && (
          <div className="flex items-start gap-2">
            <TagList tags={tags} label="Helper tags" />
            <CopyButton value={tags.join(', ')} label="Tags" />
          </div>
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {error}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
