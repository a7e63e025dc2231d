// contrib/fetch_deno at the byte level: the wire suite both adapters pass
// (tests/support/fetch_adapter_wire_suite.ts), run on this one.

import { denoFetch } from "./fetch_deno.ts";
import { fetchAdapterWireSuite } from "../tests/support/fetch_adapter_wire_suite.ts";

fetchAdapterWireSuite({ name: "denoFetch", make: denoFetch });
