export { freePort, startBuiltServer } from "../../scripts/lib/start-server.mjs";
