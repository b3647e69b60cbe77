import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's import graph has no cycle, type imports and `export ... from` included (ARCHITECTURE.md: modules
 * declare what they need and the wiring file, src/deps.ts, satisfies it). Lazy `import()` calls count too.
 */

const SRC = path.resolve(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * Statement-level `import ... from`, `export ... from` (type-only too), side-effect imports, and `import('./x')`
 * (a lazy load or an import type). A scan, not a parse: the TypeScript parser takes seconds over these 1.2 MB,
 * and Biome keeps every import statement at the start of a line.
 */
const STATIC = /(?:^|[\n;])[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*(['"])([^'"\n]+)\1/g;
const BARE = /(?:^|[\n;])[ \t]*import\s*(['"])([^'"\n]+)\1/g;
const CALL = /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

function specifiers(file: string): string[] {
  // Comments out (those that start a line: '/*' inside a string is no comment): an example is no edge.
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, '')
    .replace(/^[ \t]*\/\/.*$/gm, '');
  const found = [STATIC, BARE, CALL].flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[2] as string));
  return found.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of specifiers(file)) {
      const base = path.resolve(path.dirname(file), spec);
      const stem = base.replace(/\.js$/, '');
      const target = [`${stem}.ts`, base, path.join(base, 'index.ts')].find((c) => known.has(c));
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** One loop through the component, as a readable chain a -> b -> ... -> a. */
function loopIn(graph: Map<string, string[]>, component: string[]): string {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const chain = [v];
        while (chain[0] !== start) chain.unshift(previous.get(chain[0] as string) as string);
        return [...chain, start].map((f) => path.relative(SRC, f)).join(' -> ');
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component.map((f) => path.relative(SRC, f)).join(', ');
}

describe('apps/server/src import graph', () => {
  const graph = importGraph();

  it('has no import cycle (type imports and re-exports included)', () => {
    const found = cycles(graph).map((c) => `${c.length} files: ${loopIn(graph, c)}`);
    expect(found, `import cycles:\n${found.join('\n')}`).toEqual([]);
  });

  it('modules never import the files that wire them (deps.ts, app.ts, the decode worker entry)', () => {
    const wiring = new Set(['deps.ts', 'app.ts', 'decode/decode-worker.ts'].map((f) => path.join(SRC, f)));
    const offenders = [...graph]
      .filter(([file]) => file.startsWith(path.join(SRC, 'modules') + path.sep))
      .flatMap(([file, targets]) =>
        targets.filter((t) => wiring.has(t)).map((t) => `${path.relative(SRC, file)} -> ${path.relative(SRC, t)}`),
      );
    expect(offenders).toEqual([]);
  });
});
