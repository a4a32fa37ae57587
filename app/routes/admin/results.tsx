import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/results";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import { londonDate } from "#app/domain/london-time";
import { FLAG_LABELS, psaInWords } from "#app/domain/psa-flag";
import { RELEASE_MESSAGES } from "#app/domain/result-release-options";
import { staffRoute } from "#app/services/guards.server";
import {
  lastWithdrawalBy,
  listResults,
  type ResultListFilter,
} from "#app/services/results-admin.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Results", "Laboratory results awaiting release.");
export const headers = pipeHeaders;

const FILTERS: Record<ResultListFilter, string> = {
  awaiting: "Awaiting release",
  released: "Recently released",
  "to-check": "Flags to check again",
};

const NONE_YET: Record<ResultListFilter, string> = {
  awaiting: "No results are waiting for release.",
  released: "No results have been released yet.",
  "to-check": "No released flags are waiting to be checked again.",
};

function isFilter(value: string | null): value is ResultListFilter {
  return value !== null && Object.hasOwn(FILTERS, value);
}

/** Results awaiting the clinician's decision, or those released lately. Each person shown is audited. */
export const loader = staffRoute("result:read", async (args: Route.LoaderArgs, staff) => {
  const search = new URL(args.request.url).searchParams;
  const show = search.get("show");
  const filter: ResultListFilter = isFilter(show) ? show : "awaiting";
  const withdrawn = search.has("withdrawn");
  const [results, lastWithdrawal] = await Promise.all([
    listResults(db(), staff, filter),
    withdrawn ? lastWithdrawalBy(db(), staff) : null,
  ]);
  return data(
    {
      filter,
      withdrawn: withdrawn
        ? {
            sampleId: lastWithdrawal?.sampleId ?? null,
            event:
              lastWithdrawal &&
              `${lastWithdrawal.eventName}, ${formatLongDate(lastWithdrawal.eventDate)}`,
          }
        : null,
      results: results.map((row) => ({
        ...row,
        importedOn: row.importedAt ? londonDate(row.importedAt) : null,
        releasedLabel: row.releasedAt ? formatLondonDateTime(row.releasedAt) : null,
        checkAskedOn: row.flagCheckSince ? londonDate(row.flagCheckSince) : null,
      })),
    },
    { headers: NO_STORE },
  );
});

export default function Results({ loaderData }: Route.ComponentProps) {
  const { filter, results, withdrawn } = loaderData;
  return (
    <>
      <h1>Results</h1>
      {withdrawn && (
        <div className="notice-panel" role="status">
          <p>{RELEASE_MESSAGES.withdrawn}</p>
          {(withdrawn.sampleId || withdrawn.event) && (
            <p>
              {withdrawn.sampleId && (
                <>
                  The tube: <strong>{withdrawn.sampleId}</strong>.{" "}
                </>
              )}
              {withdrawn.event && <>Its event: {withdrawn.event}.</>}
            </p>
          )}
        </div>
      )}
      <p className="admin-actions">
        <Link className="button" to="/admin/results/import">
          Import the laboratory&apos;s results
        </Link>
        <Link className="button button--secondary" to="/admin/results/thresholds">
          PSA thresholds
        </Link>
      </p>

      <nav aria-label="Which results">
        <ul className="admin-actions plain-list">
          {(Object.keys(FILTERS) as ResultListFilter[]).map((key) => (
            <li key={key}>
              <Link
                to={key === "awaiting" ? "/admin/results" : `/admin/results?show=${key}`}
                aria-current={filter === key ? "page" : undefined}
                className={filter === key ? "active" : undefined}
              >
                {FILTERS[key]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <h2>{FILTERS[filter]}</h2>
      {filter === "to-check" && (
        <p>
          Each man here had his date of birth changed after his result was released, into another
          age band than the one his flag was decided for. Open each result to correct it or to
          confirm that the flag stands. He has been told nothing.
        </p>
      )}
      {results.length === 0 ? (
        <p>{NONE_YET[filter]}</p>
      ) : (
        <div className="table-scroll" role="region" aria-label={FILTERS[filter]} tabIndex={0}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Patient</th>
                <th scope="col">Booking</th>
                <th scope="col">Event</th>
                <th scope="col">PSA</th>
                {filter === "to-check" ? (
                  <>
                    <th scope="col">Flag given</th>
                    <th scope="col">Suggested now</th>
                    <th scope="col">Date of birth changed</th>
                  </>
                ) : (
                  <>
                    <th scope="col">{filter === "awaiting" ? "Suggested flag" : "Flag"}</th>
                    <th scope="col">{filter === "awaiting" ? "Imported" : "Released"}</th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {results.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    <Link to={`/admin/results/${row.id}`}>
                      {row.patientName}
                      <span className="visually-hidden">: open the result</span>
                    </Link>
                  </th>
                  <td>{row.reference}</td>
                  <td>
                    {row.eventName}, {formatLongDate(row.eventDate)}
                  </td>
                  <td>{row.psaValue ? psaInWords(row.psaValue, row.unit) : "No value yet"}</td>
                  {filter === "to-check" ? (
                    <>
                      <td>{row.flag ? FLAG_LABELS[row.flag] : "Not set"}</td>
                      <td>{row.suggestedFlag ? FLAG_LABELS[row.suggestedFlag] : "None"}</td>
                      <td>{row.checkAskedOn && formatLongDate(row.checkAskedOn)}</td>
                    </>
                  ) : (
                    <>
                      <td>
                        {filter === "awaiting"
                          ? row.suggestedFlag
                            ? FLAG_LABELS[row.suggestedFlag]
                            : "None: set it yourself"
                          : row.flag
                            ? FLAG_LABELS[row.flag]
                            : "Not set"}
                      </td>
                      <td>
                        {filter === "awaiting"
                          ? row.importedOn
                            ? formatLongDate(row.importedOn)
                            : "Not recorded"
                          : row.releasedLabel}
                        {row.correctedAt && (
                          <>
                            <br />
                            <span className="status-tag">Corrected</span>
                          </>
                        )}
                      </td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
