// Moved to the fixture library; kept only for tests/e2e/production-checkout.test.ts, which
// imports it still. Delete it once that file imports from ./fixtures.
export { insertEvent, insertProduct } from "./fixtures";
