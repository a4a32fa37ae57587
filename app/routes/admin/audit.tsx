import { Form, data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/audit";
import { ErrorSummary, SubmitButton, TextField, fieldId } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { AUDIT_ACTIONS, AUDIT_FILTER_FIELDS } from "#app/domain/audit";
import {
  auditActionLabel,
  auditFilterSchema,
  auditPageQuery,
  formatLondonDateTime,
  hasAnyFilter,
} from "#app/domain/audit-filter";
import { parseForm } from "#app/domain/forms";
import { readAuditLogAsStaff } from "#app/services/audit-log.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Audit log", "Who read or changed people's data, and when.");
export const headers = pipeHeaders;

const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS).map(([code, label]) => ({ code, label }));

export const loader = staffRoute("audit:read", async (args: Route.LoaderArgs, staff) => {
  const query = Object.fromEntries(new URL(args.request.url).searchParams);
  const parsed = parseForm(auditFilterSchema, query);
  if (!parsed.ok) {
    return data(
      {
        fieldErrors: parsed.fieldErrors,
        values: parsed.values,
        filtered: true,
        subjectMissing: false,
        rows: [],
        total: 0,
        page: 1,
        pageCount: 1,
        previous: null,
        next: null,
      },
      { status: 400, headers: NO_STORE },
    );
  }
  const filter = parsed.data;
  const result = await readAuditLogAsStaff(db(), staff, filter);
  const values: Record<string, string> = {};
  for (const field of AUDIT_FILTER_FIELDS) values[field] = filter[field] ?? "";
  return data(
    {
      fieldErrors: {},
      values,
      filtered: hasAnyFilter(filter),
      subjectMissing: result.subjectUserIds?.length === 0,
      rows: result.rows.map((row) => ({
        id: row.id,
        when: formatLondonDateTime(row.at),
        actor: row.actorEmail ?? "Command line",
        action: row.action,
        label: auditActionLabel(row.action),
        subject: row.subjectUserId
          ? row.subjectName || row.subjectEmail
            ? [row.subjectName, row.subjectEmail].filter(Boolean).join(", ")
            : `Deleted account (${row.subjectUserId})`
          : null,
        entity: row.entityType
          ? `${row.entityType}${row.entityId ? ` ${row.entityId}` : ""}`
          : null,
        ip: row.ipAddress,
        details: row.details
          ? Object.entries(row.details).map(([key, value]) => `${key}: ${String(value)}`)
          : [],
      })),
      total: result.total,
      page: result.page,
      pageCount: result.pageCount,
      previous: result.page > 1 ? auditPageQuery(filter, result.page - 1) || "?" : null,
      next: result.page < result.pageCount ? auditPageQuery(filter, result.page + 1) : null,
    },
    { headers: NO_STORE },
  );
});

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { fieldErrors, values, rows, total, page, pageCount, previous, next } = loaderData;
  const errorFor = (field: string) => (fieldErrors as Record<string, string>)[field];
  return (
    <>
      <h1>Audit log</h1>
      <p>
        Every time staff read or change someone&apos;s details, results or access, it is recorded
        here. Entries cannot be changed or deleted. Reading this log is recorded too.
      </p>
      <ErrorSummary errors={fieldErrors} fieldOrder={AUDIT_FILTER_FIELDS} />
      <Form method="get" className="form" noValidate aria-labelledby="filter-title">
        <h2 id="filter-title">Filter</h2>
        <div className={`form-group${errorFor("action") ? " form-group--error" : ""}`}>
          <label className="label" htmlFor={fieldId("action")}>
            Action
          </label>
          {errorFor("action") && (
            <span className="field-error" id={`${fieldId("action")}-error`}>
              <span className="visually-hidden">Error:</span> {errorFor("action")}
            </span>
          )}
          <select
            id={fieldId("action")}
            name="action"
            className="select"
            defaultValue={values.action ?? ""}
            aria-invalid={errorFor("action") ? true : undefined}
            aria-describedby={errorFor("action") ? `${fieldId("action")}-error` : undefined}
          >
            <option value="">Any action</option>
            {ACTION_OPTIONS.map((option) => (
              <option key={option.code} value={option.code}>
                {option.label} ({option.code})
              </option>
            ))}
          </select>
        </div>
        <TextField
          name="actor"
          type="email"
          label="Staff member's e-mail address"
          autoComplete="off"
          spellCheck={false}
          defaultValue={values.actor ?? ""}
          error={errorFor("actor")}
        />
        <TextField
          name="subject"
          label="Whose data"
          hint="Their e-mail address, their ID (MHAT…), a booking reference or their user id"
          autoComplete="off"
          spellCheck={false}
          defaultValue={values.subject ?? ""}
          error={errorFor("subject")}
        />
        <TextField
          name="from"
          type="date"
          label="From (date)"
          hint="The first day to show. Leave empty for no limit."
          defaultValue={values.from ?? ""}
          error={errorFor("from")}
        />
        <TextField
          name="to"
          type="date"
          label="To (date)"
          hint="The last day to show (the whole day, London time). Leave empty for no limit."
          defaultValue={values.to ?? ""}
          error={errorFor("to")}
        />
        <div className="admin-actions">
          <SubmitButton busy={false}>Show entries</SubmitButton>
          {loaderData.filtered && <Link to="/admin/audit">Clear the filters</Link>}
        </div>
      </Form>

      <h2 id="entries-title">Entries</h2>
      {loaderData.subjectMissing ? (
        <p>No account matches that e-mail address, ID or reference.</p>
      ) : rows.length === 0 ? (
        <p>No entries{loaderData.filtered ? " match these filters" : ""}.</p>
      ) : (
        <>
          <p>
            {total} {total === 1 ? "entry" : "entries"}, newest first. Page {page} of {pageCount}.
          </p>
          <div className="table-scroll" role="region" aria-labelledby="entries-title" tabIndex={0}>
            <table className="admin-table admin-table--wrap">
              <thead>
                <tr>
                  <th scope="col">When (London)</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Whose data</th>
                  <th scope="col">Record</th>
                  <th scope="col">From where</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">{row.when}</th>
                    <td>{row.actor}</td>
                    <td>
                      {row.label} <code>{row.action}</code>
                    </td>
                    <td>{row.subject ?? "—"}</td>
                    <td>{row.entity ?? "—"}</td>
                    <td>{row.ip ?? "—"}</td>
                    <td>
                      {row.details.length === 0 ? (
                        "—"
                      ) : (
                        <ul className="plain-list">
                          {row.details.map((line) => (
                            <li key={line}>{line}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {(previous || next) && (
        <nav aria-label="Pages of the audit log">
          <ul className="admin-actions plain-list">
            {previous && (
              <li>
                <Link to={previous}>Newer entries (page {page - 1})</Link>
              </li>
            )}
            {next && (
              <li>
                <Link to={next}>Older entries (page {page + 1})</Link>
              </li>
            )}
          </ul>
        </nav>
      )}
    </>
  );
}
