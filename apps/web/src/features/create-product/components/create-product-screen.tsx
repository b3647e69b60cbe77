type Props = {
  /** From `/create-product?step=`: the AI shortcuts open the flow at 'details' or 'design'. */
  step: string | null;
  /** From `?focus=tags`: the field to focus when the step opens. */
  focus: string | null;
  /** From `?designId=`: the design chosen with 'Process Design' on the Upload Design screen. */
  designId?: string | null;
};

// The four-step flow comes with the products issue; until then it shows its heading and where it will open.
export function CreateProductScreen({ step, designId }: Props) {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-bold tracking-tight">Create Product</h1>
      <p className="text-slate-500">
        Upload a design, generate the listing with AI, preview the mockup and upload it to your stores.
      </p>
      {step && (
        <p className="text-sm text-slate-500" data-testid="create-step">
          Step: {step}
        </p>
      )}
      {designId && (
        <p className="text-sm text-slate-500" data-testid="create-design">
          Design: {designId}
        </p>
      )}
    </div>
  );
}
