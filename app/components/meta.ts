import { organisation } from "#app/content/organisation";

/** Title and description for a page, in the form every route's `meta` export returns. */
export function pageMeta(title: string, description: string) {
  return [
    { title: `${title} | ${organisation.name}` },
    { name: "description", content: description },
  ];
}
