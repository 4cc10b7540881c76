/**
 * Game work through a queue, for a hall of many boards (BullMQ on Redis): the instances hand frames and actions over
 * (`queue.ts`), `tilecam worker` processes decide them (`consumer.ts`). How order, affinity, exactly-once recording,
 * leases and lost answers work: docs/design.md, "Workers".
 */
export { WorkConsumer, type WorkHandler } from './consumer.ts';
export type { WorkAnswer, WorkJob } from './job.ts';
export { answerKey, handWaitKey, PARTITIONS, startKey } from './keys.ts';
export { idInPartition, ownerOf, owners, partitionOf, placementOrder } from './partition.ts';
export { WorkQueue } from './queue.ts';
