/** Issue 28: where nodes sit on the ring in a run with regions (RegionPlaces.tsx draws the regions, on demand). */
import { placeActors, type RegionsConfig } from '../../sim/model/network';

/** Nodes in ring order: grouped by region (in the order regions are first met), else as they are. */
export function ringOrder(nodeIds: readonly string[], regions: RegionsConfig | undefined, clientIds: readonly string[]): readonly string[] {
  if (regions === undefined) return nodeIds;
  const { regionOf } = placeActors(regions, nodeIds, clientIds);
  const order: string[] = [];
  for (const id of nodeIds) {
    const r = regionOf.get(id) as string;
    if (!order.includes(r)) order.push(r);
  }
  return order.flatMap((r) => nodeIds.filter((id) => regionOf.get(id) === r));
}
