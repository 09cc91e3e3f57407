import type { IncomingMessage } from 'node:http';
import { parseBody, readBodyBytes } from '../body.js';
import type { ResourceType } from '../../resources.js';
import { failure, StatusError } from '../../status.js';
import { decodeKubernetesProtobuf, UndecodableProtobufError } from './decode.js';
import { ProtobufWireError } from './wire.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** Whether a Content-Type is Kubernetes protobuf. */
export const isProtobuf = (contentType: string | undefined): boolean => mediaType(contentType) === PROTOBUF;

const unsupported = (message: string): StatusError => new StatusError(failure(415, 'UnsupportedMediaType', message));

/**
 * Reads a create or update body as an object: JSON, YAML or, for built-in types, Kubernetes
 * protobuf (what kubectl's create subcommands send). A protobuf body of a custom resource is the
 * real server's 415; one of a kind (or with a field) this fake cannot decode is a 415 naming it,
 * never a JSON parse error; bytes that are not protobuf are a 400.
 */
export async function readObjectBody(req: IncomingMessage, contentType: string | undefined, type: ResourceType): Promise<unknown> {
  if (isProtobuf(contentType) && !type.builtIn) {
    throw unsupported('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  }
  return readBuiltInBody(req, contentType);
}

/**
 * Reads the body of a built-in kind as an object (JSON, YAML or Kubernetes protobuf), for the
 * kinds that are posted without being stored (reviews, TokenRequest), with readObjectBody's errors.
 */
export async function readBuiltInBody(req: IncomingMessage, contentType: string | undefined): Promise<unknown> {
  const bytes = await readBodyBytes(req);
  if (!isProtobuf(contentType)) return parseBody(bytes.toString('utf8'), contentType);
  try {
    return decodeKubernetesProtobuf(bytes);
  } catch (e) {
    if (e instanceof UndecodableProtobufError) {
      throw unsupported(`the body of the request was in a protobuf format this fake API server cannot decode (${e.message}); send it as application/json`);
    }
    if (e instanceof ProtobufWireError) throw new StatusError(failure(400, 'BadRequest', `the body of the request is not a valid protobuf object: ${e.message}`));
    throw e;
  }
}
