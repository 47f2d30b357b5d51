/** Partitions (isolate the selected nodes, heal), message loss, and submitting a command. */
import { memo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useBridge, useLabPanel, useLabStore } from '../labContext';
import { selectConfig, selectLossPct, selectNodeIds, selectPartitions, selectRunsRaft, selectSelectedNodes } from '../store/selectors';
import { FieldError } from './FieldError';

/** How to cut the network, shown in the diagram's corner (the Isolate button is described by it). */
export const SelectionNote = memo(function SelectionNote() {
  const partitioned = useLabPanel((s) => selectPartitions(s).length > 0);
  return <>{partitioned ? 'partitioned: Heal joins the sides' : '✂ drag across empty space to cut'}</>;
});

export const NetworkControls = memo(function NetworkControls() {
  const bridge = useBridge();
  const store = useLabStore();
  const selected = useLabPanel(selectSelectedNodes);
  const partitions = useLabPanel(selectPartitions);
  const nodeIds = useLabPanel(useShallow(selectNodeIds));
  const lossPct = useLabPanel(selectLossPct);
  // Commands go to a Raft leader's log: a service without Raft has none to take them.
  const raft = useLabPanel(selectRunsRaft);
  const [loss, setLoss] = useState('10');
  const [command, setCommand] = useState('x=1');
  const [target, setTarget] = useState('leader');
  const [problem, setProblem] = useState<string | null>(null);
  // A Paxos run proposes a value to a chosen proposer (single-decree); Multi-Paxos also submits to the leader.
  const protocol = useLabPanel(selectConfig).protocol;
  const proposeTo =
    protocol !== undefined && (protocol === 'paxos' || target !== 'leader') ? (target === 'leader' ? nodeIds[0] : target) : null;

  const isolate = () => {
    const rest = nodeIds.filter((id) => !selected.includes(id));
    if (selected.length === 0 || rest.length === 0) {
      setProblem('Select some nodes but not all of them (shift-click, or focus a node and press S) to isolate them.');
      return;
    }
    setProblem(null);
    bridge.act({ verb: 'partition', groups: [[...selected], rest] });
    store.getState().clearSelection();
  };
  const setLossNow = () => {
    const pct = Number(loss);
    if (!/^\s*\d{1,3}(\.\d{1,2})?\s*$/.test(loss) || pct > 100) {
      setProblem(`Message loss is a number of percent from 0 to 100, not "${loss}".`);
      return;
    }
    setProblem(null);
    bridge.act({ verb: 'loss', pct });
  };
  const submit = () => {
    if (!/^[^\s;|,]{1,64}$/.test(command)) {
      setProblem(`A command has no spaces, commas, bars or semicolons, like x=1, not "${command}".`);
      return;
    }
    setProblem(null);
    if (proposeTo !== null) bridge.act({ verb: 'propose', value: command, node: proposeTo });
    else bridge.act({ verb: 'submit', command, target: target === 'leader' ? null : target });
  };
  return (
    <section className="panel network-panel" aria-label="Network and commands">
      <div className="button-row">
        <button
          type="button"
          onClick={isolate}
          aria-describedby="selection-note"
          aria-label={selected.length > 0 ? `Isolate selected (${selected.join(', ')})` : undefined}
          title="Shift-click nodes (or focus one and press S) to select them, then cut them off from the rest"
        >
          {/* The words keep their width (the ring shows the selection): a longer button wrapped the
              row at 1280×720 and the diagram jumped when a node was selected. */}
          Isolate selected
        </button>
        <button
          type="button"
          onClick={() => bridge.act({ verb: 'heal' })}
          disabled={partitions.length === 0}
          aria-label="Heal partition"
          title="Heal the partition: every node can reach every other again"
        >
          Heal
        </button>
        {(raft || protocol !== undefined) && (
          <>
            <label>
              {protocol !== undefined ? 'value' : 'command'}{' '}
              <input
                value={command}
                onChange={(e) => setCommand(e.target.value)}
                size={6}
                onKeyDown={(e) => e.key === 'Enter' && submit()}
              />
            </label>
            <label>
              to
              <select
                value={protocol === 'paxos' && target === 'leader' ? (nodeIds[0] ?? '') : target}
                onChange={(e) => setTarget(e.target.value)}
                aria-label={protocol !== undefined ? 'Propose to' : 'Submit to'}
              >
                {protocol !== 'paxos' && <option value="leader">leader</option>}
                {nodeIds.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" onClick={submit}>
              {proposeTo !== null ? 'Propose' : 'Submit'}
            </button>
          </>
        )}
        <label>
          loss %
          <input
            className="loss-input"
            value={loss}
            onChange={(e) => setLoss(e.target.value)}
            size={3}
            onKeyDown={(e) => e.key === 'Enter' && setLossNow()}
          />
        </label>
        {/* The loss in force is in the status line ("10% loss") and the button's title. */}
        <button type="button" onClick={setLossNow} title={`Lose this percentage of messages from now on (now ${lossPct}%)`}>
          Set loss
        </button>
      </div>
      <FieldError problem={problem} />
    </section>
  );
});
