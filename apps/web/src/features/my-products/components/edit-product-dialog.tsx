import {
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_PRICE_MAX,
  PRODUCT_TITLE_MAX,
  type TProduct,
  type TUpdateProduct,
  ZUpdateProduct,
} from '@podforge/contract';
import { type ChangeEvent, type FormEvent, type ReactNode, useId, useState } from 'react';
import { useUpdateProduct } from '@/api/products/update-product';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { parseTags, tagsError } from '../product-format';

const FIELDS = ['title', 'description', 'price', 'tags'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

function parsePrice(text: string): { value?: number; error?: string } {
  if (!text.trim()) return { error: 'Price is required.' };
  const value = Number(text);
  if (!Number.isFinite(value)) return { error: 'Price must be a number.' };
  if (value < 0) return { error: 'Price must not be negative.' };
  if (value > PRODUCT_PRICE_MAX)
    return { error: `Price must be at most $${PRODUCT_PRICE_MAX.toLocaleString('en-US')}.` };
  // Cents only; compared with a tolerance because 19.99 * 100 is 1998.9999999999998.
  if (Math.abs(value * 100 - Math.round(value * 100)) > 1e-6) return { error: 'Price can have at most 2 decimals.' };
  return { value };
}

/** The form's values checked against the contract's limits; `changes` holds only what differs from `product`. */
function validate(product: TProduct, form: Record<Field, string>): { errors: Errors; changes: TUpdateProduct } {
  const errors: Errors = {};
  const changes: TUpdateProduct = {};

  const title = form.title.trim();
  if (!title) errors.title = 'Title is required.';
  else if (title.length > PRODUCT_TITLE_MAX) errors.title = `Title must be at most ${PRODUCT_TITLE_MAX} characters.`;
  else if (title !== product.title) changes.title = title;

  const description = form.description.trim();
  if (description.length > PRODUCT_DESCRIPTION_MAX)
    errors.description = `Description must be at most ${PRODUCT_DESCRIPTION_MAX.toLocaleString('en-US')} characters.`;
  else if (description !== product.description) changes.description = description;

  const price = parsePrice(form.price);
  if (price.error) errors.price = price.error;
  else if (price.value !== product.price) changes.price = price.value;

  const tags = parseTags(form.tags);
  const tagError = tagsError(tags);
  if (tagError) errors.tags = tagError;
  else if (tags.join('\n') !== product.tags.join('\n')) changes.tags = tags;

  return { errors, changes };
}

/** Edit title, description, price and tags; saves only the changed fields with PATCH. */
export function EditProductDialog({ product, onClose }: { product: TProduct; onClose: () => void }) {
  const [form, setForm] = useState<Record<Field, string>>({
    title: product.title,
    description: product.description,
    price: String(product.price),
    tags: product.tags.join(', '),
  });
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateProduct();
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(product, form);
    setErrors(result.errors);
    if (Object.keys(result.errors).length > 0) return;
    if (Object.keys(result.changes).length === 0) return onClose();
    // The contract is the last word on what the API accepts; the checks above should already have said why.
    const checked = ZUpdateProduct.safeParse(result.changes);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const name = FIELDS.find((f) => f === issue?.path[0]) ?? 'title';
      setErrors({ [name]: issue?.message ?? 'Invalid value.' });
      return;
    }
    update.mutate(
      { id: product.id, data: result.changes },
      {
        onSuccess: (saved) => {
          onClose();
          toast({ title: 'Product Updated', description: `${saved.title} was saved.`, variant: 'success' });
        },
      },
    );
  };

  const field = (name: Field, label: string, control: (props: FieldProps) => ReactNode, hint?: string) => {
    const error = errors[name];
    const hintId = `${id}-${name}-hint`;
    const errorId = `${id}-${name}-error`;
    return (
      <div className="space-y-1">
        <label htmlFor={`${id}-${name}`} className="text-sm font-medium text-slate-900">
          {label}
        </label>
        {control({
          id: `${id}-${name}`,
          value: form[name],
          onChange: (e) => setForm((f) => ({ ...f, [name]: e.target.value })),
          'aria-invalid': error ? true : undefined,
          'aria-describedby': [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined,
          className: inputClass,
        })}
        {hint && (
          <p id={hintId} className="text-xs text-slate-500">
            {hint}
          </p>
        )}
        {error && (
          <p id={errorId} className="text-sm text-red-600">
            {error}
          </p>
        )}
      </div>
    );
  };

  const saveError =
    update.error instanceof ApiError ? (update.error.serverMessage ?? update.error.message) : update.error?.message;

  return (
    <Dialog title="Edit Product" description={product.title} onClose={onClose}>
      <form className="space-y-4" onSubmit={submit} noValidate>
        {field('title', 'Title', (p) => (
          <input {...p} />
        ))}
        {field('description', 'Description', (p) => (
          <textarea {...p} rows={5} />
        ))}
        {field('price', 'Price (USD)', (p) => (
          <input {...p} type="number" inputMode="decimal" min={0} max={PRODUCT_PRICE_MAX} step="0.01" />
        ))}
        {field(
          'tags',
          'Tags',
          (p) => (
            <input {...p} />
          ),
          'Separate tags with commas.',
        )}
        {saveError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            Could not save the product. {saveError}
          </p>
        )}
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save changes'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

type FieldProps = {
  id: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
};
