#!/usr/bin/env python3
"""oci-index.py OUT.tar IMAGE.tar...: one OCI image layout (in a tar) holding the images of the given layouts (Jib's
buildTar output, one image each) behind an image index (a manifest list) that names each image's platform, read
from its config. The layout's index.json names that one index, so `crane push <dir> <ref>` pushes the manifest list
as it pushes a single image. Blobs are stored once; the tar is reproducible (no times, no owners)."""
import hashlib
import io
import json
import os
import sys
import tarfile

INDEX = "application/vnd.oci.image.index.v1+json"


def blob_name(digest):
    algorithm, hex_digest = digest.split(":", 1)
    return f"blobs/{algorithm}/{hex_digest}"


def member(name, size):
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = size, 0o644, 0
    return info


def add_bytes(out, name, data):
    out.addfile(member(name, len(data)), io.BytesIO(data))


def main(target, images):
    descriptors, written = [], set()
    with tarfile.open(target + ".tmp", "w", format=tarfile.PAX_FORMAT) as out:
        for image in images:
            with tarfile.open(image) as layout:
                members = {m.name.removeprefix("./"): m for m in layout.getmembers() if m.isfile()}
                read = lambda name: json.load(layout.extractfile(members[name]))
                entries = read("index.json")["manifests"]
                if len(entries) != 1:
                    sys.exit(f"{image} holds {len(entries)} images, not one")
                descriptor = entries[0]
                config = read(blob_name(read(blob_name(descriptor["digest"]))["config"]["digest"]))
                platform = {"architecture": config["architecture"], "os": config["os"]}
                if config.get("variant"):
                    platform["variant"] = config["variant"]
                descriptors.append({"mediaType": descriptor["mediaType"], "digest": descriptor["digest"],
                                    "size": descriptor["size"], "platform": platform})
                for name, m in members.items():
                    if name.startswith("blobs/") and name not in written:
                        written.add(name)
                        out.addfile(member(name, m.size), layout.extractfile(m))
        platforms = [json.dumps(d["platform"], sort_keys=True) for d in descriptors]
        if len(set(platforms)) != len(platforms):
            sys.exit(f"two images of one platform: {platforms}")
        index = json.dumps({"schemaVersion": 2, "mediaType": INDEX, "manifests": descriptors}).encode()
        digest = "sha256:" + hashlib.sha256(index).hexdigest()
        add_bytes(out, blob_name(digest), index)
        add_bytes(out, "oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode())
        root = {"schemaVersion": 2, "mediaType": INDEX,
                "manifests": [{"mediaType": INDEX, "digest": digest, "size": len(index)}]}
        add_bytes(out, "index.json", json.dumps(root).encode())
    os.replace(target + ".tmp", target)
    print(f"[oci-index] {target}: {', '.join(json.loads(p)['architecture'] for p in platforms)} ({digest})")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    try:
        main(sys.argv[1], sys.argv[2:])
    finally:
        if os.path.exists(sys.argv[1] + ".tmp"):
            os.remove(sys.argv[1] + ".tmp")
