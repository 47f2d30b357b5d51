/**
 * The lock-service clients: what each is doing, its token, its own lease countdown, and buttons
 * for everything a client can do. A client's lease clock is its own — it cannot see its pauses.
 */
import { memo, useState } from 'react';
import { MAX_CLIENTS, READ_MODES, featuresOf, type ReadMode } from '../../sim/model/config';
import type { ClientView } from '../../sim/view/runView';
import { formatDuration } from '../format';
import { useBridge, useLabPanel } from '../labContext';
import { selectClients, selectConfig, selectNow, selectSchedule } from '../store/selectors';
import { FieldError } from '../controls/FieldError';
import { WhyButton } from './WhyPanel';

function ClientCard({ client, now, reads }: { client: ClientView; now: number; reads: boolean }) {
  const bridge = useBridge();
  const [kvKey, setKvKey] = useState('x');
  const [kvValue, setKvValue] = useState('1');
  const [readMode, setReadMode] = useState<ReadMode | 'run'>('run');
  const [key, setKey] = useState('job:42');
  const [lease, setLease] = useState('10000');
  const [write, setWrite] = useState(`result=${client.id}-1`);
  const [pause, setPause] = useState('5000');
  const [problem, setProblem] = useState<string | null>(null);
  const id = client.id;
  const intent = (body: Parameters<typeof bridge.act>[0]) => {
    setProblem(null);
    bridge.act(body);
  };
  const whole = (text: string, what: string, min: number, max: number): number | null => {
    if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < min || Number(text) > max) {
      setProblem(`${what} must be a whole number of ms from ${min} to ${max}, not "${text}".`);
      return null;
    }
    return Number(text);
  };
  const keyOk = (k: string) => {
    if (!/^[A-Za-z0-9_.:/-]{1,32}$/.test(k)) {
      setProblem(`A key is 1 to 32 letters, digits or _.:/- (like job:42), not "${k}".`);
      return false;
    }
    return true;
  };
  const state = !client.alive ? 'crashed' : client.paused ? 'paused' : 'running';
  const holding = client.holdings[0];
  const leaseLeft = holding ? holding.deadline - now : null;
  return (
    <article className={`client-card client-${state}`} aria-labelledby={`client-${id}-title`} data-client={id}>
      <h3 id={`client-${id}-title`}>
        Client {id} <span className={`badge badge-${state}`}>{state}</span>{' '}
        <WhyButton subject={{ kind: 'client', id }} label={`Why does ${id} believe what it believes about its locks?`} />
      </h3>
      <dl className="client-facts">
        <dt>doing</dt>
        <dd data-testid={`client-${id}-status`}>{client.status}</dd>
        <dt>token</dt>
        <dd className="token">{client.currentToken ?? 'none'}</dd>
        <dt>its lease</dt>
        <dd>
          {holding
            ? `${holding.key}: ${leaseLeft !== null && leaseLeft > 0 ? `${formatDuration(leaseLeft)} left` : `ended ${formatDuration(-(leaseLeft ?? 0))} ago`} by its clock`
            : 'none'}
        </dd>
        {reads && (
          <>
            <dt>last read</dt>
            <dd data-testid={`client-${client.id}-result`}>{client.lastResult ?? 'none yet'}</dd>
          </>
        )}
        {client.queue.length > 0 && (
          <>
            <dt>queued</dt>
            <dd>{client.queue.join(', ')}</dd>
          </>
        )}
      </dl>
      {/* Each control row holds its inputs beside the buttons that use them, so both clients' buttons fit a 1280×720 panel. */}
      <div className="client-controls">
        <div className="client-row">
          <label>
            lock key <input value={key} onChange={(e) => setKey(e.target.value)} size={7} />
          </label>
          <label>
            lease ms <input value={lease} onChange={(e) => setLease(e.target.value)} size={6} inputMode="numeric" />
          </label>
          <button
            type="button"
            onClick={() => {
              const ms = whole(lease, 'A lease', 1, 10_000_000);
              if (ms !== null && keyOk(key)) intent({ verb: 'client', client: id, intent: { op: 'acquire', key, leaseMs: ms } });
            }}
            aria-label={`Acquire as client ${id}`}
          >
            Acquire
          </button>
          <button
            type="button"
            onClick={() => keyOk(key) && intent({ verb: 'client', client: id, intent: { op: 'release', key } })}
            aria-label={`Release as client ${id}`}
          >
            Release
          </button>
        </div>
        <div className="client-row">
          <label>
            write <input value={write} onChange={(e) => setWrite(e.target.value)} size={11} />
          </label>
          <button
            type="button"
            onClick={() => {
              const m = /^([A-Za-z0-9_.:/-]{1,32})=([^\s;]{0,64})$/.exec(write.trim());
              if (!m) {
                setProblem(`A write is key=value with no spaces, like result=A-1, not "${write}".`);
                return;
              }
              intent({ verb: 'client', client: id, intent: { op: 'write', key: m[1], value: m[2] } });
            }}
            title="Writes to both stores, stamped with the client's current token"
            aria-label={`Write as client ${id}`}
          >
            Write
          </button>
        </div>
        {reads && (
          <div className="client-row">
            <label>
              key{' '}
              <input value={kvKey} onChange={(e) => setKvKey(e.target.value)} size={4} aria-label={`Key to put or get as client ${id}`} />
            </label>
            <label>
              value{' '}
              <input value={kvValue} onChange={(e) => setKvValue(e.target.value)} size={4} aria-label={`Value to put as client ${id}`} />
            </label>
            <button
              type="button"
              onClick={() => {
                if (!keyOk(kvKey)) return;
                if (!/^[^\s;|,]{1,64}$/.test(kvValue)) {
                  setProblem(`A value is 1 to 64 characters with no spaces, ; | or , (like 1), not "${kvValue}".`);
                  return;
                }
                intent({ verb: 'client', client: id, intent: { op: 'put', key: kvKey, value: kvValue } });
              }}
              aria-label={`Put as client ${id}`}
              title="Stores the value in the replicated key-value map, through the log"
            >
              Put
            </button>
            <label>
              read{' '}
              <select
                value={readMode}
                onChange={(e) => setReadMode(e.target.value as ReadMode | 'run')}
                aria-label={`Read mode for client ${id}'s get`}
              >
                <option value="run">run's mode</option>
                {READ_MODES.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              onClick={() =>
                keyOk(kvKey) &&
                intent({ verb: 'client', client: id, intent: { op: 'get', key: kvKey, mode: readMode === 'run' ? null : readMode } })
              }
              aria-label={`Get as client ${id}`}
              title="Reads the key: through the log, by ReadIndex (§6.4) or from the leader's lease (§6.4.1)"
            >
              Get
            </button>
          </div>
        )}
        <div className="client-row">
          <label>
            pause ms <input value={pause} onChange={(e) => setPause(e.target.value)} size={6} inputMode="numeric" />
          </label>
          <button
            type="button"
            onClick={() => {
              const ms = whole(pause, 'A pause', 1, 10_000_000);
              if (ms !== null) intent({ verb: 'client', client: id, intent: { op: 'pause', ms } });
            }}
            aria-label={`Pause client ${id}`}
            title={`Pause client ${id} for these ms: a GC pause it cannot see`}
          >
            Pause
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => intent({ verb: 'client', client: id, intent: { op: client.alive ? 'crash' : 'restart' } })}
            aria-label={`${client.alive ? 'Crash' : 'Restart'} client ${id}`}
          >
            {client.alive ? 'Crash' : 'Restart'}
          </button>
        </div>
      </div>
      <FieldError problem={problem} />
    </article>
  );
}

const NEXT_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const ClientsPanel = memo(function ClientsPanel() {
  const clients = useLabPanel(selectClients);
  const now = useLabPanel(selectNow);
  const config = useLabPanel(selectConfig);
  const schedule = useLabPanel(selectSchedule);
  const bridge = useBridge();
  const addClient = () => {
    const next = [...NEXT_LETTERS].find((l) => !config.clientIds.includes(l));
    if (!next) return;
    // Replaying the run to now with one more client: the run is a function of its inputs.
    bridge.load({ ...config, clientIds: [...config.clientIds, next] }, schedule, { startAtMs: now });
  };
  return (
    <section className="panel clients-panel" aria-labelledby="clients-title">
      {/* The tab says "Clients" already; the heading stays for screen readers. */}
      <h2 id="clients-title" className="visually-hidden">
        Clients
      </h2>
      {clients.length === 0 && <p className="hint">This run has no lock-service clients.</p>}
      <div className="client-cards">
        {clients.map((c) => (
          <ClientCard key={c.id} client={c} now={now} reads={featuresOf(config).includes('reads')} />
        ))}
      </div>
      <button type="button" onClick={addClient} disabled={config.clientIds.length >= MAX_CLIENTS}>
        Add client
      </button>
    </section>
  );
});
