// contrib/fetch_node at the byte level: the wire suite both adapters pass
// (tests/support/fetch_adapter_wire_suite.ts), run on this one.

import { nodeFetch } from "./fetch_node.ts";
import { fetchAdapterWireSuite } from "../tests/support/fetch_adapter_wire_suite.ts";

fetchAdapterWireSuite({ name: "nodeFetch", make: nodeFetch });
