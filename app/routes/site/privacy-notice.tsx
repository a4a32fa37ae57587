import { ContentDocumentPage } from "#app/components/content-document";
import { pageMeta } from "#app/components/meta";
import { privacyNotice } from "#app/content/privacy-notice";

export const meta = () => pageMeta(privacyNotice.title, privacyNotice.description);

export default function PrivacyNotice() {
  return <ContentDocumentPage document={privacyNotice} />;
}
