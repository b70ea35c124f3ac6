import { useEffect, useState } from "preact/hooks";
import { LANGUAGE_NAMES } from "../i18n";
import { useI18n } from "../i18n/context";
import { errorText } from "../i18n/errors";
import { api, ApiProblem } from "../net/api";
import { rememberName } from "../net/profile";
import type { Send } from "../net/socket";
import { saveTicket } from "../net/tickets";
import type { PublicTable } from "../protocol";
import { wantedSettings, type ClientState } from "../state/reducer";
import { navigate } from "../routes";
import "../talk.css";

const REFRESH_MS = 10_000;

/** Home page: public rooms waiting for players; join one with the name typed above. */
export function PublicRooms({ name }: { name: string }) {
  const { t } = useI18n();
  const [tables, setTables] = useState<PublicTable[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [reported, setReported] = useState<string[]>([]);

  async function load() {
    try {
      setTables((await api.tables()).tables);
    } catch {
      setTables((current) => current ?? []);
    }
  }
  useEffect(() => {
    void load();
    const id = setInterval(() => { if (!document.hidden) void load(); }, REFRESH_MS);
    return () => clearInterval(id);
  }, []);

  async function join(table: PublicTable) {
    const trimmed = name.trim();
    if (!trimmed) {
      navigate(`/r/${table.code}`); // the room's page asks for a name
      return;
    }
    setBusy(table.code);
    setError(null);
    rememberName(trimmed);
    try {
      const ticket = await api.join(table.code, { name: trimmed });
      saveTicket(ticket);
      navigate(`/r/${ticket.code}`);
    } catch (e) {
      setError(errorText(t, e instanceof ApiProblem ? e.code : "network"));
      void load();
    } finally {
      setBusy(null);
    }
  }

  async function report(table: PublicTable) {
    setError(null);
    try {
      await api.report(table.code);
      setReported((codes) => [...codes, table.code]);
    } catch (e) {
      setError(errorText(t, e instanceof ApiProblem ? e.code : "network"));
    }
  }

  // Nothing waits: the home page stays as it was (the list appears when a table opens). A
  // table this visitor reported is no longer shown to them.
  const shown = tables?.filter((table) => !reported.includes(table.code)) ?? [];
  if (shown.length === 0 && reported.length === 0) return null;
  return (
    <section class="panel open-tables" aria-labelledby="open-tables-title" data-testid="open-tables">
      <div class="chat-head">
        <h2 id="open-tables-title">{t("tables.title")}</h2>
        <button type="button" class="btn btn-ghost btn-small" onClick={() => void load()} data-testid="tables-refresh">{t("tables.refresh")}</button>
      </div>
      {error ? <p class="alert" role="alert">{error}</p> : null}
      {reported.length > 0 ? <p class="muted" role="status" data-testid="table-reported">{t("tables.reported")}</p> : null}
      <ul class="table-list" aria-live="polite">
          {shown.map((table) => (
            <li key={table.code} class="table-item" data-testid="open-table" data-code={table.code}>
              <div class="table-info">
                <span class="table-name" data-testid="table-name">{table.name}</span>
                <span class="table-meta">
                  <span>{t(`tables.edition.${table.edition}`)}</span>
                  <span>{LANGUAGE_NAMES[table.language]}</span>
                  <span data-testid="table-seats">{t("tables.seatsFree", { n: table.seats_free })}</span>
                </span>
              </div>
              <button type="button" class="btn btn-primary btn-small" disabled={busy !== null} aria-label={t("tables.joinNamed", { name: table.name })} onClick={() => void join(table)} data-testid="table-join">
                {t("tables.join")}
              </button>
              <button type="button" class="btn btn-ghost btn-small" aria-label={t("tables.reportNamed", { name: table.name })} onClick={() => void report(table)} data-testid="table-report">
                {t("tables.report")}
              </button>
            </li>
          ))}
      </ul>
    </section>
  );
}

/** Lobby: the host lists the room on the home page (or not), with a name (the room's language,
 * chosen above, is shown with it). */
export function OpenTable({ state, send }: { state: ClientState; send: Send }) {
  const { t } = useI18n();
  const room = state.room!;
  const s = room.settings;
  const isHost = Boolean(state.you?.is_host);
  const [tableName, setTableName] = useState(s.table_name ?? "");
  useEffect(() => setTableName(s.table_name ?? ""), [s.table_name]);
  // A change asked for shows at once (the server's answer follows).
  const wanted = wantedSettings(state);
  const isPublic = Boolean(wanted.public);

  function change(update: { public?: boolean; table_name?: string | null }) {
    send({ type: "update_settings", settings: { ...wanted, ...update } });
  }

  if (!isHost) {
    return <p class="muted open-state" data-testid="open-state">{t(isPublic ? "open.isPublic" : "open.isPrivate")}</p>;
  }
  return (
    <fieldset class="open-table" data-testid="open-table-settings">
      <legend>{t("open.title")}</legend>
      <label class="check">
        <input type="checkbox" checked={isPublic} onChange={(e) => change({ public: e.currentTarget.checked })} data-testid="public" />
        <span>{t("open.public")}</span>
      </label>
      {isPublic ? (
        <form class="open-name" onSubmit={(e) => { e.preventDefault(); change({ table_name: tableName.trim() || null }); }}>
          <label class="field">
            <span>{t("open.name")}</span>
            <input value={tableName} maxLength={40} placeholder={t("open.namePlaceholder")} onInput={(e) => setTableName(e.currentTarget.value)} onBlur={() => { if ((tableName.trim() || null) !== (wanted.table_name ?? null)) change({ table_name: tableName.trim() || null }); }} data-testid="table-name-input" />
          </label>
        </form>
      ) : null}
    </fieldset>
  );
}
