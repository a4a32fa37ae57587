import { ContentDocumentPage } from "#app/components/content-document";
import { pageMeta } from "#app/components/meta";
import { accessibilityStatement } from "#app/content/accessibility-statement";

export const meta = () =>
  pageMeta(accessibilityStatement.title, accessibilityStatement.description);

export default function AccessibilityStatement() {
  return <ContentDocumentPage document={accessibilityStatement} />;
}
