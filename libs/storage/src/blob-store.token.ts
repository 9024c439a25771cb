/** Injection token of a service's `BlobStore`. */
export const BLOB_STORE = Symbol('longhaul.blobStore');
