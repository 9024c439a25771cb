import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutboxRelay } from './outbox.relay';

const connectorFile = join(__dirname, '../../../infra/debezium', `${OutboxRelay.connector}.connector.json`);

describe('the outbox relay', () => {
  it('is the checked-in connector, with its slot', () => {
    // The file name is the connector's name; the infra CLI and docker-compose register it as such.
    const config = JSON.parse(readFileSync(connectorFile, 'utf8')) as Record<string, string>;
    expect(config['slot.name']).toBe(OutboxRelay.slot);
  });

  it("relays nothing but the payload and the named headers, so extra outbox columns stay out of messages", () => {
    const config = JSON.parse(readFileSync(connectorFile, 'utf8')) as Record<string, string>;
    expect(config['transforms.outbox.table.field.event.payload']).toBe('payload');
    expect(config['transforms.outbox.table.expand.json.payload']).toBe('false');
    // No field placed in the envelope: the value is the payload column alone.
    expect(config['transforms.outbox.table.fields.additional.placement']!.split(',').every((f) => f.split(':')[1] === 'header')).toBe(true);
    expect(config['transforms.outbox.table.fields.additional.placement']).not.toContain('wal_lsn');
  });
});
