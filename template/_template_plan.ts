// The compiled form of a template text: its segments, scanned once and kept in a bounded cache
// per text (tagged-template texts apart). A text without rules and splices compiles to fixed
// driver text plus one slot per argument, so binding it only fills an array; the others are
// rendered segment by segment (_template_renderer.ts).

import { CommandCache } from "../driver/internal.ts";
import type { ArgPath } from "./_path.ts";
import { scan } from "./_template_scanner.ts";
import type { ScanOptions, Segment } from "./_template_syntax.ts";

/** A scanned template text, ready to bind. */
export interface Plan {
  /** The template text the plan was compiled from. */
  readonly text: string;
  readonly segments: readonly Segment[];
  /** Driver text when the plan has no splices and no rules. */
  readonly fixedText?: string;
  /** For fixed plans: `null` = next positional argument, else the named path. */
  readonly slots?: readonly (ArgPath | null)[];
  readonly positionalCount: number;
  readonly hasNamed: boolean;
}

// Plans by text, bounded and least-recently-used first out: the driver's cache of parsed commands.
const cache = new CommandCache<Plan>(1000);
const taggedCache = new CommandCache<Plan>(1000);

const TAGGED: ScanOptions = Object.freeze({ tagged: true });

function compile(text: string, options: ScanOptions = {}): Plan {
  const segments = scan(text, options);
  let fixed = true;
  let positionalCount = 0;
  let hasNamed = false;
  const parts: string[] = [];
  const slots: (ArgPath | null)[] = [];
  for (const s of segments) {
    if (s.kind === "text") parts.push(s.text);
    else if (s.kind === "positional") {
      parts.push(s.marker);
      slots.push(null);
      positionalCount++;
    } else if (s.kind === "named") {
      parts.push(s.marker);
      slots.push(s.path);
      hasNamed = true;
    } else {
      fixed = false;
      hasNamed = true;
    }
  }
  return fixed
    ? { text, segments, fixedText: parts.join(""), slots, positionalCount, hasNamed }
    : { text, segments, positionalCount: countPositional(segments), hasNamed };
}

/** The positional placeholders of segments, counting those inside `@{and}` / `@{if}` bodies. */
export function countPositional(segments: readonly Segment[]): number {
  let n = 0;
  for (const s of segments) {
    if (s.kind === "positional") n++;
    else if (s.kind === "rule" && (s.rule.kind === "and" || s.rule.kind === "if")) {
      n += countPositional(s.rule.body);
    }
  }
  return n;
}

/** The plan of a text, compiled on first use and cached (the least recently used dropped past the limit). */
export function planOf(text: string): Plan {
  let plan = cache.get(text);
  if (plan === undefined) {
    plan = compile(text);
    cache.set(text, plan);
  }
  return plan;
}

/** The plan of a tagged template's text (its values are `#{0}`, `#{1}`, …), cached apart. */
export function taggedPlanOf(text: string): Plan {
  let plan = taggedCache.get(text);
  if (plan === undefined) {
    plan = compile(text, TAGGED);
    taggedCache.set(text, plan);
  }
  return plan;
}
