// Index and alias name rules, as Elasticsearch checks them on index creation.

import { esError } from "../_errors.ts";
import { utf8Length } from "../_utf8.ts";

const FORBIDDEN = ["\\", "/", "*", "?", '"', "<", ">", "|", " ", ",", "#", ":"];

/** Throws 400 `invalid_index_name_exception` when `name` is not a valid index name. */
export function validateIndexName(name: string): void {
  const fail = (why: string): never => {
    throw esError("invalid_index_name_exception", `Invalid index name [${name}], ${why}`, {
      index_uuid: "_na_",
      index: name,
    });
  };
  if (name.length === 0) fail("must not be empty");
  if (name !== name.toLowerCase()) fail("must be lowercase");
  const bad = FORBIDDEN.find((c) => name.includes(c));
  if (bad) fail(`must not contain the following characters [${FORBIDDEN.join(", ")}]`);
  if (/^[_\-+]/.test(name)) fail("must not start with '_', '-', or '+'");
  if (name === "." || name === "..") fail("must not be '.' or '..'");
  const bytes = utf8Length(name);
  if (bytes > 255) fail(`index name is too long, (${bytes} > 255)`);
}

/** Throws 400 `invalid_alias_name_exception` when `name` is not a valid alias name. */
export function validateAliasName(name: string): void {
  const fail = (why: string): never => {
    // Both real engines name no index here (Elasticsearch 9.5.4, OpenSearch 3.8.0).
    throw esError("invalid_alias_name_exception", `Invalid alias name [${name}]: ${why}`);
  };
  if (name.length === 0) fail("must not be empty");
  if (FORBIDDEN.some((c) => name.includes(c))) {
    fail(`must not contain the following characters [${FORBIDDEN.join(", ")}]`);
  }
  if (/^[_\-+]/.test(name)) fail("must not start with '_', '-', or '+'");
  if (name === "." || name === "..") fail("must not be '.' or '..'");
}
