import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "drizzle/", ".data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      // An element's props made as `{ ...x, more }` are walked several times slower by React on
      // the server, since V8 gives such an object no cached list of its keys (D-176).
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "JSXOpeningElement[name.name=/^[a-z]/] > JSXSpreadAttribute:first-child:not(:last-child)",
          message:
            "Write the element's own attributes before the spread, or build the props without spreading first (D-176).",
        },
        {
          selector:
            "JSXElement[children.length>0] > JSXOpeningElement[name.name=/^[a-z]/] > JSXSpreadAttribute:first-child",
          message:
            "An element with children and a spread gets props made as { ...x, children }: put the children in the spread object, or write the attributes out (D-176).",
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    // Given the build as a function, React Router rebuilds its route table on every request:
    // its request handler is made in server/pages.ts only, which gives it the build itself in production.
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: ["server/pages.ts", "app/components/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@react-router/express", message: "Use pageHandler from server/pages.ts." },
            {
              name: "react-router",
              importNames: ["createRequestHandler"],
              message: "Use pageHandler from server/pages.ts.",
            },
            // A page without scripts needs only an <a>; the router's link costs it per link (D-154).
            {
              name: "react-router",
              importNames: ["Link", "NavLink"],
              message: "Use Link and NavLink from #app/components/link.",
            },
          ],
        },
      ],
    },
  },
);
