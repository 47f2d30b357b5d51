/**
 * The two resources of the chapter's fencing section: a store that checks fencing tokens and
 * one that does not. The fenced store keeps the highest token it accepted per key and rejects
 * anything older (and a write with no token at all); the unfenced one takes everything.
 */
import type { StoreWriteRecord } from '../model/types';

export interface StoredValue {
  readonly value: string;
  readonly token: number | null;
}

export const STORE_IDS = ['fenced', 'unfenced'] as const;
export type StoreId = (typeof STORE_IDS)[number];

export class Store {
  readonly id: StoreId;
  /** False for the unfenced store, and for the fenced one under bug `no-fencing`. */
  readonly checksTokens: boolean;
  readonly values = new Map<string, StoredValue>();
  /** Highest token accepted per key. */
  readonly highest = new Map<string, number>();
  accepted = 0;
  rejected = 0;
  readonly writes: StoreWriteRecord[] = [];

  constructor(id: StoreId, checksTokens: boolean) {
    this.id = id;
    this.checksTokens = checksTokens;
  }

  write(
    t: number,
    client: string,
    key: string,
    value: string,
    token: number | null,
    lockKey: string | null,
    leaseEnded: boolean,
  ): StoreWriteRecord {
    const highest = this.highest.get(key);
    let reason: string | null = null;
    if (this.checksTokens) {
      if (token === null) reason = `write to ${key} has no fencing token`;
      else if (highest !== undefined && token < highest) reason = `token ${token} is older than token ${highest}`;
    }
    const accepted = reason === null;
    if (accepted) {
      this.values.set(key, { value, token });
      if (token !== null && (highest === undefined || token > highest)) this.highest.set(key, token);
      this.accepted++;
    } else {
      this.rejected++;
    }
    const record: StoreWriteRecord = { t, client, key, value, token, lockKey, accepted, leaseEnded, reason };
    this.writes.push(record);
    return record;
  }

  report() {
    const values: Record<string, StoredValue> = {};
    for (const [key, v] of [...this.values].sort((a, b) => (a[0] < b[0] ? -1 : 1))) values[key] = { ...v };
    return {
      values,
      accepted: this.accepted,
      rejected: this.rejected,
      writes: this.writes.map(({ t, client, key, value, token, accepted }) => ({ t, client, key, value, token, accepted })),
    };
  }
}
