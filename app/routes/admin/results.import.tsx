import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { AdminTable } from "#app/components/admin/admin-table";
import type { Route } from "./+types/results.import";
import { ErrorSummary, SubmitButton, fieldId } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import type { FieldErrors } from "#app/domain/form-basics";
import { FLAG_LABELS } from "#app/domain/psa-flag";
import {
  decodeCsvBytes,
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  MAX_IMPORT_ROWS,
} from "#app/domain/result-import";
import { staffRoute } from "#app/services/guards.server";
import {
  commitImport,
  createImport,
  listOwnImports,
  viewImport,
} from "#app/services/results-admin.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { FORM_BODY_LIMIT_BYTES, readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Import results", "Import the laboratory's results file.");
export const headers = pipeHeaders;

/**
 * Without `?import=`: the upload form, the columns the file must have, and the clinician's own
 * recent imports. With it: that import's preview (or, once committed, what was imported), for the
 * clinician who uploaded it only; anyone else gets 404.
 */
export const loader = staffRoute("result:import", async (args: Route.LoaderArgs, staff) => {
  const importId = new URL(args.request.url).searchParams.get("import");
  if (importId !== null) {
    const preview = await viewImport(db(), staff, importId);
    if (!preview) throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
    return data(
      {
        preview: {
          ...preview,
          createdLabel: formatLondonDateTime(preview.createdAt),
          committedLabel: preview.committedAt ? formatLondonDateTime(preview.committedAt) : null,
        },
        recent: null,
        columns: null,
        limits: null,
      },
      { headers: NO_STORE },
    );
  }
  const recent = await listOwnImports(db(), staff);
  return data(
    {
      preview: null,
      recent: recent.map((item) => ({
        ...item,
        createdLabel: formatLondonDateTime(item.createdAt),
        committedLabel: item.committedAt ? formatLondonDateTime(item.committedAt) : null,
      })),
      columns: IMPORT_COLUMNS.map(({ header, description }) => ({ header, description })),
      limits: { kilobytes: Math.floor(FORM_BODY_LIMIT_BYTES / 1024), rows: MAX_IMPORT_ROWS },
    },
    { headers: NO_STORE },
  );
});

type ActionData = { fieldErrors: FieldErrors };

/** A refused upload (its answer may carry text from the file): never stored by a cache. */
function refuse(fieldErrors: FieldErrors) {
  return data<ActionData>({ fieldErrors }, { status: 400, headers: NO_STORE });
}

const CSV_NAME = /\.(csv|txt)$/i;
const CSV_TYPE = /^(text\/|application\/(csv|vnd\.ms-excel|octet-stream)$)/i;

/** Upload and check a file (intent "upload"), or import a checked one ("commit"); else 400. */
export const action = staffRoute("result:import", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const intent = form.get("intent");

  if (intent === "commit") {
    const importId = String(form.get("importId") ?? "");
    const result = await commitImport(db(), staff, importId);
    if (result.status === "not-found")
      throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
    // Committed now or before: either way the page shows what was imported.
    return redirect(`/admin/results/import?import=${importId}`);
  }

  if (intent !== "upload")
    return refuse({ file: "This form was not understood. Reload the page and try again." });

  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0 || !file.name)
    return refuse({ file: IMPORT_MESSAGES.noFile });
  if (!CSV_NAME.test(file.name) && !CSV_TYPE.test(file.type))
    return refuse({ file: IMPORT_MESSAGES.notCsv });
  const text = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
  // The name is cleaned (control characters, length) where it is stored: createImport.
  const created = await createImport(db(), staff, { filename: file.name, text });
  if (!created.ok) return refuse({ file: created.error });
  return redirect(`/admin/results/import?import=${created.id}`);
});

export default function ImportResults({ loaderData, actionData }: Route.ComponentProps) {
  const { preview } = loaderData;
  if (preview) return <Preview preview={preview} />;
  return (
    <UploadForm
      columns={loaderData.columns ?? []}
      recent={loaderData.recent ?? []}
      limits={loaderData.limits ?? { kilobytes: 0, rows: 0 }}
      errors={actionData?.fieldErrors ?? {}}
    />
  );
}

function UploadForm({
  columns,
  recent,
  limits,
  errors,
}: {
  columns: { header: string; description: string }[];
  limits: { kilobytes: number; rows: number };
  recent: NonNullable<Route.ComponentProps["loaderData"]["recent"]>;
  errors: FieldErrors;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const id = fieldId("file");
  return (
    <>
      <p>
        <Link to="/admin/results">Back to results</Link>
      </p>
      <h1>Import results</h1>
      <p>
        Upload the laboratory&apos;s results file. You will see every row and any problems before
        anything is saved; nothing reaches patients until you release each result.
      </p>
      <ErrorSummary errors={errors} />
      <Form method="post" encType="multipart/form-data" noValidate className="form">
        <input type="hidden" name="intent" value="upload" />
        <div className={`form-group${errors.file ? " form-group--error" : ""}`}>
          <label className="label" htmlFor={id}>
            Results file (CSV)
          </label>
          <span className="field-hint" id={`${id}-hint`}>
            A .csv file of up to {limits.kilobytes} KB and {limits.rows.toLocaleString("en-GB")}{" "}
            rows.
          </span>
          {errors.file && (
            <span className="field-error" id={`${id}-error`}>
              <span className="visually-hidden">Error:</span> {errors.file}
            </span>
          )}
          <input
            id={id}
            name="file"
            type="file"
            accept=".csv,text/csv"
            className={`input${errors.file ? " input--error" : ""}`}
            aria-describedby={[`${id}-hint`, errors.file && `${id}-error`]
              .filter(Boolean)
              .join(" ")}
            aria-invalid={errors.file ? true : undefined}
          />
        </div>
        <SubmitButton busy={busy} busyLabel="Checking the file...">
          Upload and check
        </SubmitButton>
      </Form>

      <h2>What the file must contain</h2>
      <p>
        The first row names the columns, in any order and any capitals. Each further row is one
        result. Each row is matched to a booking by its reference, its sample id, or both (which
        must then be the same booking).
      </p>
      <AdminTable label="Columns of the file" columns={["Column", "What goes in it"]}>
        {columns.map((column) => (
          <tr key={column.header}>
            <th scope="row">
              <code>{column.header}</code>
            </th>
            <td>{column.description}</td>
          </tr>
        ))}
      </AdminTable>
      <p>For example:</p>
      <div className="table-scroll" role="region" aria-label="An example file" tabIndex={0}>
        <pre>
          {
            "reference,sample id,psa,unit,sample date\nMHAT-7KQ3-9XZ2,LAB-000123,1.23,ng/ml,2026-06-10"
          }
        </pre>
      </div>

      {recent.length > 0 && (
        <>
          <h2>Your recent files</h2>
          <AdminTable
            label="Your recent files"
            columns={["File", "Uploaded", "Rows", "With problems", "Status"]}
          >
            {recent.map((item) => (
              <tr key={item.id}>
                <th scope="row">
                  <Link to={`/admin/results/import?import=${item.id}`}>
                    {item.filename ?? "Results file"}
                  </Link>
                </th>
                <td>{item.createdLabel}</td>
                <td>{item.counts.rows}</td>
                <td>{item.counts.errors}</td>
                <td>
                  {item.committedLabel
                    ? `Imported ${item.committedLabel}`
                    : "Checked, not imported"}
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </>
  );
}

function Preview({
  preview,
}: {
  preview: NonNullable<Route.ComponentProps["loaderData"]["preview"]>;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { counts, committedLabel } = preview;
  return (
    <>
      <p>
        <Link to="/admin/results/import">Back to import</Link>
      </p>
      <h1>{committedLabel ? "Results imported" : "Check the results before importing"}</h1>
      <p>
        File: {preview.filename ?? "Results file"}, uploaded {preview.createdLabel}.
      </p>
      {committedLabel ? (
        <div className="notice-panel" role="status">
          <p>
            Imported {committedLabel}: {counts.good} {counts.good === 1 ? "result" : "results"}{" "}
            saved.{" "}
            {counts.errors > 0 &&
              `${counts.errors} ${counts.errors === 1 ? "row" : "rows"} with problems ${counts.errors === 1 ? "was" : "were"} not imported.`}
          </p>
          <p>
            <Link to="/admin/results">Review and release the results</Link>
          </p>
        </div>
      ) : (
        <div className="notice-panel">
          <p>
            {counts.rows} {counts.rows === 1 ? "row" : "rows"}: {counts.good} ready to import,{" "}
            {counts.errors} with problems. Rows with problems are not imported; correct the file and
            upload it again for those.
          </p>
        </div>
      )}

      <AdminTable
        label="Rows of the file"
        columns={["Line", "Patient", "Age at sample", "PSA", "Suggested flag", "Status"]}
      >
        {preview.rows.map((row, index) => {
          const good = row.errors.length === 0;
          return (
            <tr key={`${row.line}-${index}`}>
              <th scope="row">{row.line}</th>
              <td>
                {row.patient ? (
                  <>
                    {row.patient.name}
                    <br />
                    {row.patient.reference}
                    <br />
                    {row.patient.eventName}, {formatLongDate(row.patient.eventDate)}
                  </>
                ) : (
                  <>
                    {row.reference && <>Reference: {row.reference}</>}
                    {row.reference && row.sampleId && <br />}
                    {row.sampleId && <>Sample id: {row.sampleId}</>}
                  </>
                )}
              </td>
              <td>{good && row.age !== null ? row.age : ""}</td>
              <td>
                {row.psa} {row.unit}
              </td>
              <td>
                {good
                  ? row.suggestedFlag
                    ? FLAG_LABELS[row.suggestedFlag]
                    : "None: set the flag yourself"
                  : ""}
              </td>
              <td>
                <strong>
                  {good ? (committedLabel ? "Imported" : "Ready to import") : "Not imported"}
                </strong>
                {row.errors.length > 0 && (
                  <ul>
                    {row.errors.map((error) => (
                      <li key={error}>{error}</li>
                    ))}
                  </ul>
                )}
                {good && row.notes.length > 0 && (
                  <ul>
                    {row.notes.map((note) => (
                      <li key={note}>{note}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          );
        })}
      </AdminTable>

      {!committedLabel &&
        (counts.good > 0 ? (
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="commit" />
            <input type="hidden" name="importId" value={preview.id} />
            <p>
              Importing saves the {counts.good} good {counts.good === 1 ? "row" : "rows"} in one go.
              Patients see nothing until you release each result.
            </p>
            <SubmitButton busy={busy} busyLabel="Importing...">
              Import {counts.good} {counts.good === 1 ? "result" : "results"}
            </SubmitButton>
          </Form>
        ) : (
          <p>
            No row can be imported. Correct the file and{" "}
            <Link to="/admin/results/import">upload it again</Link>.
          </p>
        ))}
    </>
  );
}
