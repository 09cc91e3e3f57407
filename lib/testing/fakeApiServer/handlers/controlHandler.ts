import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX, type DropEventsSpec, type FailNextOptions, type FaultControl, type WatchErrorSpec } from '../faults/faults.js';
import type { PartitionSpec } from '../faults/partitions.js';
import { writeJson } from './http.js';
import { parseJsonBody, readBody } from '../wire/body.js';
import { badRequest, failure, StatusError } from '../status.js';

type Args = { [k: string]: unknown };

/**
 * `POST /rxkube/faults/{fault}` with a JSON body of arguments: the out-of-process form of
 * {@link FaultControl}. Answers `{"affected":N}`.
 */
export async function handleControl(faults: FaultControl, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  if (req.method !== 'POST') throw new StatusError(failure(405, 'MethodNotAllowed', 'use POST'));
  const fault = pathname.slice(CONTROL_PREFIX.length);
  const args = (parseJsonBody(await readBody(req)) ?? {}) as Args;
  let affected: number | undefined;
  switch (fault) {
    case 'dropWatches':
      affected = faults.dropWatches({ abrupt: args.abrupt === true });
      break;
    case 'dropEvents':
      if ('match' in args || 'probability' in args) faults.dropEvents(args as unknown as Exclude<DropEventsSpec, number | ((e: never) => boolean)>);
      else faults.dropEvents(Number(args.count ?? 0));
      break;
    case 'stopDroppingEvents':
      faults.stopDroppingEvents();
      break;
    case 'sendWatchError':
      affected = faults.sendWatchError(args as unknown as WatchErrorSpec);
      break;
    case 'failNext':
      faults.failNext(Number(args.count ?? 1), args as unknown as FailNextOptions);
      break;
    case 'compact':
      faults.compact();
      break;
    case 'stallWatches':
      affected = faults.stallWatches();
      break;
    case 'slowEvents':
      faults.slowEvents(Number(args.ms ?? 0));
      break;
    case 'malformedLine':
      affected = faults.malformedLine();
      break;
    case 'bookmarkNow':
      affected = faults.bookmarkNow();
      break;
    case 'partition':
      affected = faults.partition(args as PartitionSpec);
      break;
    case 'heal':
      affected = faults.heal(args.user === undefined && args.userAgent === undefined ? undefined : (args as PartitionSpec));
      break;
    case 'reset':
      faults.reset();
      break;
    default:
      throw badRequest(`unknown fault "${fault}"`);
  }
  writeJson(res, 200, JSON.stringify({ affected: affected ?? 0 }));
}
