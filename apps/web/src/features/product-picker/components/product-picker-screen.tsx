// The full screen comes with its own issue; until then it shows its heading.
export function ProductPickerScreen() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-bold tracking-tight">Product Picker</h1>
      <p className="text-slate-500">Browse the print-on-demand catalogue and pick a product for your design.</p>
    </div>
  );
}
