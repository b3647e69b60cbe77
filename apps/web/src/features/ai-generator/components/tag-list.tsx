/** Tags as chips, named for screen readers and tests by `label`. */
export function TagList({ tags, label }: { tags: string[]; label: string }) {
  return (
    <ul className="flex flex-1 flex-wrap gap-1.5" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-700">
          {tag}
        </li>
      ))}
    </ul>
  );
}
