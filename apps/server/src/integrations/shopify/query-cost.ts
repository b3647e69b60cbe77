/**
 * Requested cost (apis.md A3): a mutation 10, a query 1; a connection `first: N` costs 2 + N times what each of its
 * nodes selects (1, plus nested connections), so connections inside connections multiply.
 */
export function queryCost(query: string, variables: Record<string, unknown> = {}): number {
  const body = query.slice(Math.max(0, query.indexOf('{')));
  const stack: { n: number; inner: number }[] = [{ n: 1, inner: 0 }];
  let pending: number | null = null;
  const token = /first:\s*(\$?\w+)|[{}]/g;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    if (m[1] !== undefined) {
      const raw = m[1];
      pending = raw.startsWith('$') ? Number(variables[raw.slice(1)] ?? 1) : Number(raw);
    } else if (m[0] === '{') {
      stack.push({ n: pending ?? 0, inner: 0 });
      pending = null;
    } else if (stack.length > 1) {
      const done = stack.pop() as { n: number; inner: number };
      const parent = stack[stack.length - 1] as { n: number; inner: number };
      if (done.n > 0) parent.inner += 2 + done.n * (1 + done.inner);
      else parent.inner += done.inner;
    }
  }
  const isMutation = /^\s*mutation\b/.test(query);
  return (isMutation ? 10 : 1) + (stack[0]?.inner ?? 0);
}

/** The most a single query may request (apis.md A3: MAX_COST_EXCEEDED above it). */
export const MAX_QUERY_COST = 1000;
