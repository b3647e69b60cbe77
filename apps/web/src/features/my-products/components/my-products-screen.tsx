// The full screen comes with its own issue; until then it shows its heading.
export function MyProductsScreen() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-bold tracking-tight">My Products</h1>
      <p className="text-slate-500">Search, edit and upload the products you have created.</p>
    </div>
  );
}
