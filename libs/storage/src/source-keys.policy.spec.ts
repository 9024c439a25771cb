import { jobBlobFolders, sourceBlobKey, uploadBlobFolder, uploadSourceKey } from './source-keys.policy';

const JOB = '0b7c1f1e-3d2a-4f5b-9c8d-7e6f5a4b3c2d';
const UPLOAD = '9f8e7d6c-5b4a-4321-8fed-cba987654321';

describe('sourceBlobKey', () => {
  it('reads an upload from the key it was stored at, whatever case the job named its id in', () => {
    expect(sourceBlobKey(JOB, { uploadId: UPLOAD })).toBe(uploadSourceKey(UPLOAD));
    expect(sourceBlobKey(JOB, { uploadId: UPLOAD.toUpperCase() })).toBe(`uploads/${UPLOAD}/source`);
  });

  it('reads a URL source from the job’s own folder', () => {
    expect(sourceBlobKey(JOB, { url: 'https://media.example.com/clip.mp4' })).toBe(`sources/${JOB}/source`);
  });

  it('keeps an upload’s blob in a folder of its own, not among the job’s', () => {
    expect(uploadSourceKey(UPLOAD).startsWith(uploadBlobFolder(UPLOAD))).toBe(true);
    expect(jobBlobFolders(JOB).some((folder) => uploadSourceKey(UPLOAD).startsWith(folder))).toBe(false);
  });
});
