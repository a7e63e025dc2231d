// The one node's name and transport address: `searchvisitor` at 127.0.0.1:9300 unless the engine
// was given its own (`EngineOptions.node`, as a real node takes `node.name` and its publish
// address from its settings).

/** What the one node is called and where its transport layer says it listens. */
export interface NodeIdentity {
  /** `node.name`. */
  readonly name: string;
  /** The publish address, `host:port`. */
  readonly transportAddress: string;
}

/** What the helpers below read: a request context's engine state. */
interface WithNode {
  readonly state: { readonly node?: NodeIdentity };
}

/** The node's identity when none is given. */
export const DEFAULT_NODE: NodeIdentity = {
  name: "searchvisitor",
  transportAddress: "127.0.0.1:9300",
};

/** The node's name. */
export function nodeName(ctx: WithNode): string {
  return ctx.state.node?.name ?? DEFAULT_NODE.name;
}

/** The node's transport (publish) address, `host:port`. */
export function transportAddress(ctx: WithNode): string {
  return ctx.state.node?.transportAddress ?? DEFAULT_NODE.transportAddress;
}

/** The port of the node's transport address. */
export function transportPort(ctx: WithNode): string {
  const address = transportAddress(ctx);
  return address.slice(address.lastIndexOf(":") + 1);
}
