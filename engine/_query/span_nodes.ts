// The parsed form of span queries, a leaf the query tree and the span runner both use.

/** A parsed span clause. */
export type SpanNode =
  | { readonly kind: "term"; readonly field: string; readonly term: string }
  | { readonly kind: "multi"; readonly field: string; readonly test: (t: string) => boolean }
  | {
    readonly kind: "near";
    readonly clauses: readonly SpanNode[];
    readonly slop: number;
    readonly inOrder: boolean;
  }
  | { readonly kind: "or"; readonly clauses: readonly SpanNode[] }
  | {
    readonly kind: "not";
    readonly include: SpanNode;
    readonly exclude: SpanNode;
    readonly pre: number;
    readonly post: number;
  }
  | { readonly kind: "first"; readonly match: SpanNode; readonly end: number }
  | {
    readonly kind: "containing" | "within";
    readonly big: SpanNode;
    readonly little: SpanNode;
  };

/** The one field a span clause reads. */
export function fieldOf(n: SpanNode): string {
  switch (n.kind) {
    case "term":
    case "multi":
      return n.field;
    case "near":
    case "or":
      return fieldOf(n.clauses[0]!);
    case "not":
      return fieldOf(n.include);
    case "first":
      return fieldOf(n.match);
    default:
      return fieldOf(n.big);
  }
}
