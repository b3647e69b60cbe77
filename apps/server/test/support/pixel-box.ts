/** The bounding box of the RGBA pixels `match` accepts (right and bottom exclusive); x = width when none does. */
export function pixelBox(
  data: Uint8Array,
  width: number,
  height: number,
  match: (r: number, g: number, b: number, a: number) => boolean,
): { x: number; y: number; right: number; bottom: number } {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (match(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0, data[i + 3] ?? 0)) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return { x: minX, y: minY, right: maxX + 1, bottom: maxY + 1 };
}
