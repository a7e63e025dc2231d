/**
 * The template room's second door, for its sibling rooms only (lambda, mapper, check, playground):
 * row mapping into entities and documents, the version read from a hit, `total`/`took` on
 * result lists, and the one rule of what counts as a set field.
 *
 * Not public API: this module is listed nowhere in deno.json's `exports` nor in the npm
 * package's entry points, its names may change in any release, and users' code, examples and
 * docs import `template/mod.ts` only (`tools/check_layers.ts` enforces both).
 *
 * @module
 */

export { mapResultSet, toDocument } from "./row_mapping.ts";
export { parseSeqNoVersion } from "./hit_meta.ts";
export { withMeta } from "./result_reading.ts";
export { initialValues, setEntries } from "./unset_fields.ts";
export { NUMBER_TYPES } from "./mapping_types.ts";
