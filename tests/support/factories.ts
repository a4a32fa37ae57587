// Moved to the fixture library; kept for the test files not converted yet.
export { insertEvent, insertProduct } from "./fixtures";
