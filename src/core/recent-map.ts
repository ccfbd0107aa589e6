/**
 * Sets `key` to `value` as the newest entry of `map` (a `Map` keeps insertion order) and drops the oldest entries
 * beyond `capacity`: a bounded cache of what was used last.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > capacity) map.delete(map.keys().next().value as K);
}
