/**
 * Gives the script-tag loader each element's whole chunk graph: the element's chunk, every chunk
 * it imports (the shared core, the English strings), and the same for the elements it opens. The
 * loader asks for all of them in one go, so a page reaches a typeable element after the HTML, the
 * loader and one parallel wave of chunks, instead of finding each import only once the chunk
 * that names it has arrived.
 *
 * The loader holds a placeholder (`CHUNK_GRAPH` in src/define.ts) that this replaces with the JSON of
 * `{ "<tag>": ["chunks/…js", …] }`, paths relative to the loader. Chunks loaded on demand
 * (markdown, other languages, the console's words) are not in it.
 */
import type { Plugin } from 'vite';
import { ELEMENTS, SHOWN_INSIDE } from '../src/elements/registry.js';

/** The placeholder as the minifier writes it, in whichever quotes. */
const PLACEHOLDER = /(["'`])__CONSULT_CHUNK_GRAPH__\1/;

interface ChunkInfo {
  fileName: string;
  imports: readonly string[];
  facadeModuleId?: string | null;
  moduleIds?: readonly string[];
}

/** `{ tag: [chunk files] }` for every element, from the bundle's chunks. */
export function chunkGraph(chunks: readonly ChunkInfo[], entry: string): Record<string, string[]> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (file: string, into: Set<string>) => {
    if (into.has(file) || file === entry) return;
    into.add(file);
    for (const next of byFile.get(file)?.imports ?? []) closure(next, into);
  };
  const isElement = (tag: string) => (id: string) =>
    id.replaceAll('\\', '/').endsWith(`/src/elements/${tag}/${tag}.ts`);
  // Its own chunk, or the chunk it shares with others (a group of vite.config.ts).
  const chunkOf = (tag: string) =>
    chunks.find((chunk) => chunk.fileName !== entry && chunk.moduleIds?.some(isElement(tag)));
  // The elements the loader carries itself (vite.config.ts) need no chunk.
  const inEntry = (tag: string) => byFile.get(entry)?.moduleIds?.some(isElement(tag));
  const graph: Record<string, string[]> = {};
  for (const { tag } of ELEMENTS) {
    const files = new Set<string>();
    for (const shown of [tag, ...(SHOWN_INSIDE[tag] ?? [])]) {
      if (inEntry(shown)) continue;
      const chunk = chunkOf(shown);
      if (!chunk) throw new Error(`no chunk for <${shown}>`);
      closure(chunk.fileName, files);
    }
    graph[tag] = [...files].sort();
  }
  return graph;
}

export function chunkGraphPlugin(): Plugin {
  return {
    name: 'consult-chunk-graph',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.fileName === 'consult-elements.js');
      if (!entry) return;
      if (!PLACEHOLDER.test(entry.code)) {
        this.error('the loader has no chunk graph placeholder: see src/define.ts');
      }
      const graph = chunkGraph(chunks, entry.fileName);
      // A string literal holding the JSON, which the loader parses.
      entry.code = entry.code.replace(PLACEHOLDER, () => JSON.stringify(JSON.stringify(graph)));
    },
  };
}
