/** What breaks the target marketplace's rules (lib/listing.ts `listingProblems`), shown before the push. */
export function ListingProblems({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul
      className="space-y-1 rounded-md bg-amber-50 p-3 text-sm text-amber-800"
      aria-label="Marketplace rules"
      data-testid="listing-problems"
    >
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}
