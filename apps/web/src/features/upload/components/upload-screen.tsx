// The full screen comes with its own issue; until then it shows its heading.
export function UploadScreen() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-bold tracking-tight">Upload Design Files</h1>
      <p className="text-slate-500">Upload your design files and let AI generate product listings for you.</p>
    </div>
  );
}
