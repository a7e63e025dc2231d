// REST routing: a table of method + path pattern (`/{index}/_doc/{id}`) → handler.

/** Path parameters by name, already percent-decoded. */
export type PathParams = Record<string, string>;

interface Route<H> {
  method: string;
  segments: string[];
  handler: H;
  rank: string;
}

/** What a lookup found: a handler, a path known under other methods (405), or nothing. */
export type RouteMatch<H> =
  | { kind: "found"; handler: H; params: PathParams }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" };

function split(path: string): string[] {
  const out = path.split("/");
  let n = 0;
  for (const s of out) if (s !== "") out[n++] = s;
  out.length = n;
  return out;
}

/** Routes requests; literal segments win over parameters, position by position. */
export class Router<H> {
  private routes: Route<H>[] = [];
  private sorted = true;

  /** Adds a route for one or more methods. */
  add(methods: string | string[], pattern: string, handler: H): this {
    const segments = split(pattern);
    const rank = segments.map((s) => (s.startsWith("{") ? "1" : "0")).join("");
    for (const method of Array.isArray(methods) ? methods : [methods]) {
      this.routes.push({ method, segments, handler, rank });
    }
    this.sorted = false;
    return this;
  }

  /** Whether the route's pattern matches `parts` (checked before any parameter is built). */
  private matchesPath(route: Route<H>, parts: string[]): boolean {
    if (route.segments.length !== parts.length) return false;
    for (let i = 0; i < parts.length; i++) {
      const seg = route.segments[i]!;
      if (seg.charCodeAt(0) !== 123 && seg !== parts[i]) return false;
    }
    return true;
  }

  private paramsOf(route: Route<H>, parts: string[]): PathParams {
    const params: PathParams = {};
    for (let i = 0; i < parts.length; i++) {
      const seg = route.segments[i]!;
      if (seg.charCodeAt(0) === 123) params[seg.slice(1, -1)] = parts[i]!;
    }
    return params;
  }

  /** Finds the handler for `method` and `path` (path without the query string). */
  match(method: string, path: string): RouteMatch<H> {
    if (!this.sorted) {
      this.routes.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
      this.sorted = true;
    }
    const parts = split(path);
    try {
      // Decoded only where there is something to decode (a new string per segment otherwise).
      for (let i = 0; i < parts.length; i++) {
        if (parts[i]!.includes("%")) parts[i] = decodeURIComponent(parts[i]!);
      }
    } catch {
      return { kind: "not_found" };
    }
    // Like Elasticsearch's path trie: the most specific pattern matching the path decides; when
    // it has no handler for the method, the answer is 405 even if a less specific one would match.
    // Built only once a route of another method matches: most requests never need it.
    let allowed: Set<string> | undefined;
    let bestRank: string | undefined;
    const routes = this.routes;
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]!;
      if (bestRank !== undefined && route.rank !== bestRank) break;
      if (!this.matchesPath(route, parts)) continue;
      bestRank = route.rank;
      if (route.method === method) {
        return { kind: "found", handler: route.handler, params: this.paramsOf(route, parts) };
      }
      (allowed ??= new Set()).add(route.method);
    }
    if (allowed) return { kind: "method_not_allowed", allowed: [...allowed] };
    return { kind: "not_found" };
  }
}
