// The full screen comes with its own issue; until then it shows its heading.
export function AiGeneratorScreen() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-bold tracking-tight">AI Generator</h1>
      <p className="text-slate-500">Generate titles, descriptions and tags that sell.</p>
    </div>
  );
}
