import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
} from 'graphql';

/**
 * Requested cost (apis.md A3), read from the parsed document: a mutation 10, a query 1; a connection asked for with
 * `first: N` or `last: N` (a literal or a variable) costs 2 + N times what each of its nodes selects (1, plus nested
 * connections), so connections inside connections multiply. Fragments count where they are spread; an operation is
 * chosen by name when the document has several.
 */
export function queryCost(query: string, variables: Record<string, unknown> = {}, operationName?: string): number {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return 1; // Not GraphQL: Shopify refuses it before pricing it.
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    else if (d.kind === Kind.OPERATION_DEFINITION) operations.push(d);
  }
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return 1;

  /** How many nodes a connection field asks for: its `first` or `last`, 0 when it is not a connection. */
  const pageSize = (field: FieldNode) => {
    const arg = field.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'last');
    if (!arg) return 0;
    if (arg.value.kind === Kind.INT) return Number(arg.value.value);
    if (arg.value.kind === Kind.VARIABLE) return Number(variables[arg.value.name.value] ?? 1);
    return 0;
  };

  const costOf = (set: SelectionSetNode, spread: Set<string>): number => {
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (!sel.selectionSet) continue;
        const inner = costOf(sel.selectionSet, spread);
        const n = pageSize(sel);
        total += n > 0 ? 2 + n * (1 + inner) : inner;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total += costOf(sel.selectionSet, spread);
      } else {
        const name = sel.name.value;
        const fragment = fragments.get(name);
        if (!fragment || spread.has(name)) continue;
        total += costOf(fragment.selectionSet, new Set([...spread, name]));
      }
    }
    return total;
  };

  return (operation.operation === 'mutation' ? 10 : 1) + costOf(operation.selectionSet, new Set());
}

/** The most a single query may request (apis.md A3: MAX_COST_EXCEEDED above it). */
export const MAX_QUERY_COST = 1000;
