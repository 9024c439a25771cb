import type { MediaProbe } from '@longhaul/media';
import { withConnection, type DataSource } from '@longhaul/persistence';

/** A row of `api.uploads`: a video accepted by `POST /v1/uploads`, stored and probed. */
export interface UploadRecord {
  id: string;
  /** The tenant whose key uploaded it: only its jobs may name it. */
  tenantId: string;
  blobKey: string;
  sizeBytes: number;
  contentType: string | null;
  filename: string | null;
  probe: MediaProbe;
  createdAt: Date;
}

interface UploadRow {
  id: string;
  tenant_id: string;
  blob_key: string;
  size_bytes: string | number;
  content_type: string | null;
  filename: string | null;
  probe: MediaProbe;
  created_at: Date;
}

/** What the intake services need of the uploads table (a fake in tests). */
export interface UploadRecords {
  insert(upload: Omit<UploadRecord, 'createdAt'>): Promise<UploadRecord>;
  /** The upload, or null; `id` must be a UUID (callers check). */
  find(id: string): Promise<UploadRecord | null>;
  /**
   * The upload, if it exists and is `tenantId`'s, stamped as used by a job now (`used_at`, which
   * upload retention ages it by); else null. `id` must be a UUID (callers check).
   */
  use(id: string, tenantId: string): Promise<UploadRecord | null>;
}

/**
 * `api.uploads` (migration `MediaIntake1764600000001`). Single statements on a pooled connection:
 * an upload is written once, after its blob is stored, and never changed.
 */
export class UploadRepository implements UploadRecords {
  constructor(private readonly dataSource: DataSource) {}

  async insert(upload: Omit<UploadRecord, 'createdAt'>): Promise<UploadRecord> {
    const [row] = await withConnection(this.dataSource, (sql) =>
      sql.rows<UploadRow>(
        `INSERT INTO api.uploads (id, tenant_id, blob_key, size_bytes, content_type, filename, probe)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id, tenant_id, blob_key, size_bytes, content_type, filename, probe, created_at`,
        [upload.id, upload.tenantId, upload.blobKey, upload.sizeBytes, upload.contentType, upload.filename, JSON.stringify(upload.probe)],
      ),
    );
    return toRecord(row!);
  }

  async find(id: string): Promise<UploadRecord | null> {
    const [row] = await withConnection(this.dataSource, (sql) =>
      sql.rows<UploadRow>(`SELECT id, tenant_id, blob_key, size_bytes, content_type, filename, probe, created_at FROM api.uploads WHERE id = $1`, [id]),
    );
    return row ? toRecord(row) : null;
  }

  /**
   * One UPDATE, so the stamp takes the row's lock: an upload retention has locked to delete is
   * waited for and then found gone, and one stamped first is skipped by retention (`uploadHistory`).
   */
  async use(id: string, tenantId: string): Promise<UploadRecord | null> {
    const [row] = await withConnection(this.dataSource, (sql) =>
      sql.rows<UploadRow>(
        `UPDATE api.uploads SET used_at = now() WHERE id = $1 AND tenant_id = $2
         RETURNING id, tenant_id, blob_key, size_bytes, content_type, filename, probe, created_at`,
        [id, tenantId],
      ),
    );
    return row ? toRecord(row) : null;
  }
}

function toRecord(row: UploadRow): UploadRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    blobKey: row.blob_key,
    sizeBytes: Number(row.size_bytes),
    contentType: row.content_type,
    filename: row.filename,
    probe: row.probe,
    createdAt: row.created_at,
  };
}
