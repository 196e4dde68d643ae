import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** The record types tests publish, as a person does at their DNS host. */
export type PublishedType = 'TXT' | 'CNAME' | 'A' | 'AAAA';

/** An authoritative DNS server on a loopback UDP port, answering from records the test publishes. */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as `DNS_SERVERS` takes it. */
  readonly address: string;
  /** Adds a record (TTL 60 s); the server answers it from the next question on. */
  publish(type: PublishedType, name: string, value: string): void;
  /** Drops every record of `type` at `name` (every type when absent). */
  unpublish(name: string, type?: PublishedType): void;
  /** Questions asked so far, as `TYPE name`. */
  readonly questions: string[];
  /** Stops answering (questions then time out) until `answer(true)`. */
  answer(on: boolean): void;
  close(): Promise<void>;
}

const NXDOMAIN = 3;
const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Starts the server: NXDOMAIN for a name with no record of any type, NOERROR with no answers (NODATA)
 * for a name that has other types, and a CNAME followed to its target's records within the zone, as a
 * recursive resolver would hand them on.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, { type: PublishedType; value: string }[]>();
  const questions: string[] = [];
  let answering = true;
  const socket = createSocket('udp4');
  const answersFor = (name: string, type: string, depth = 0): dnsPacket.Answer[] => {
    const here = records.get(key(name)) ?? [];
    const exact = here.filter((r) => r.type === type);
    const cname = here.find((r) => r.type === 'CNAME');
    if (exact.length === 0 && cname !== undefined && depth < 8) {
      const link: dnsPacket.Answer = { type: 'CNAME', name, ttl: 60, data: cname.value };
      return [link, ...answersFor(cname.value, type, depth + 1)];
    }
    return exact.map((r): dnsPacket.Answer =>
      r.type === 'TXT'
        ? { type: 'TXT', name, ttl: 60, data: [Buffer.from(r.value)] }
        : ({ type: r.type, name, ttl: 60, data: r.value } as dnsPacket.Answer),
    );
  };
  socket.on('message', (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question === undefined) return;
    questions.push(`${question.type} ${key(question.name)}`);
    if (!answering) return;
    const answers = answersFor(question.name, question.type);
    const known = records.has(key(question.name));
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      // the low 4 bits of the flags are the response code: 3 is NXDOMAIN
      flags:
        dnsPacket.AUTHORITATIVE_ANSWER |
        ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) |
        dnsPacket.RECURSION_AVAILABLE |
        (answers.length === 0 && !known ? NXDOMAIN : 0),
      questions: [question],
      answers,
    } as dnsPacket.Packet);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    questions,
    publish: (type, name, value) => {
      const list = records.get(key(name)) ?? [];
      list.push({ type, value });
      records.set(key(name), list);
    },
    unpublish: (name, type) => {
      const kept = (records.get(key(name)) ?? []).filter((r) => type !== undefined && r.type !== type);
      if (kept.length === 0) records.delete(key(name));
      else records.set(key(name), kept);
    },
    answer: (on) => {
      answering = on;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
