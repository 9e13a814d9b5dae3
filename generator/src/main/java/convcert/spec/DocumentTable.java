package convcert.spec;

/**
 * document.csv: the document a profile's tables restate, its version, and whether it is a published
 * standard or a draft. A draft's tables certify against text that may change (IEEE P3109's working
 * group asks that its drafts not be used for conformance claims), so every report under it says so.
 */
final class DocumentTable {

    /** The document of a profile; draft: the profile restates a draft. */
    record Document(String title, String version, boolean draft, String note) {

        /** The line every report under a draft profile carries, or null for a published document. */
        String draftNotice(String profile) {
            return draft ? "DRAFT: profile " + profile + " restates " + title + " " + version + ", a draft: " + note : null;
        }
    }

    private DocumentTable() {
    }

    /** The one row, or null when the profile has no document.csv. */
    static Document load(CsvTable table) {
        Document document = null;
        for (CsvTable.Row row : table.rows()) {
            if (document != null) {
                throw row.error("document", "document.csv holds one row, the profile's document");
            }
            String status = row.required("status");
            if (!status.equals("standard") && !status.equals("draft")) {
                throw row.error("status", "expected standard or draft, got '" + status + "'");
            }
            document = new Document(row.required("document"), row.required("version"), status.equals("draft"),
                    row.required("note"));
        }
        return document;
    }
}
