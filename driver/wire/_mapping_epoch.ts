// A counter per transport (so per data source) that moves whenever a command sent through it may
// have changed an index mapping: creating or deleting an index, `_mapping`, aliases, rollovers,
// data streams. Caches of mappings above (the lambda room's) compare it to know they are stale.

const epochs = new WeakMap<object, number>();

/** The current epoch of a transport (0 until a mapping change was sent). */
export function mappingEpochOf(transport: object): number {
  return epochs.get(transport) ?? 0;
}

/** Moves the epoch of a transport on. */
export function bumpMappingEpoch(transport: object): void {
  epochs.set(transport, mappingEpochOf(transport) + 1);
}

const CHANGES: ReadonlySet<string> = new Set([
  "_mapping",
  "_mappings",
  "_alias",
  "_aliases",
  "_rollover",
  "_data_stream",
  "_close",
  "_open",
  "_clone",
  "_split",
  "_shrink",
]);

/** Whether a command may change what `GET /{index}/_mapping` answers. */
export function changesMappings(method: string, segments: readonly string[]): boolean {
  if (method === "GET" || method === "HEAD") return false;
  if (segments.length === 1) return !segments[0]!.startsWith("_") || segments[0] === "_aliases";
  for (let i = 0; i < segments.length; i++) if (CHANGES.has(segments[i]!)) return true;
  return false;
}
