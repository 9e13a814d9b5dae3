package convcert.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * document.csv: the documents a profile's tables restate, one row each, with the version read, the
 * sections the tables rest on, where to get it, and whether it is a published text or a draft. Every
 * report repeats them, so a certificate says which texts it certifies against. A draft's tables
 * certify against text that may change (IEEE P3109's working group asks that its drafts not be used
 * for conformance claims), so every report under it says so first.
 */
final class DocumentTable {

    /** One document; draft: the text is a draft. */
    record Document(String title, String version, String sections, String where, boolean draft, String note) {

        /** "The OpenCL C Specification v3.1.1: Explicit Conversions ...; from registry.khronos.org/OpenCL". */
        String cited() {
            return title + " " + version + (draft ? " (draft)" : "") + ": " + sections + "; from " + where;
        }
    }

    private DocumentTable() {
    }

    /** The rows, in the table's order; empty when the profile has no document.csv. */
    static List<Document> load(CsvTable table) {
        List<Document> documents = new ArrayList<>();
        for (CsvTable.Row row : table.rows()) {
            String status = row.required("status");
            if (!status.equals("published") && !status.equals("draft")) {
                throw row.error("status", "expected published or draft, got '" + status + "'");
            }
            boolean draft = status.equals("draft");
            String note = row.text("note");
            if (draft && note.isBlank()) {
                throw row.error("note", "a draft's row says in its note what a reader of a report must know");
            }
            documents.add(new Document(row.required("document"), row.required("version"), row.required("sections"),
                    row.required("where"), draft, note));
        }
        return List.copyOf(documents);
    }

    /** The line every report under a profile restating a draft carries first, or null. */
    static String draftNotice(String profile, List<Document> documents) {
        return documents.stream().filter(Document::draft).findFirst()
                .map(d -> "DRAFT: profile " + profile + " restates " + d.title() + " " + d.version() + ", a draft: " + d.note())
                .orElse(null);
    }
}
