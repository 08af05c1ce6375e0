"""model.bin: an uncompressed ustar tar of NAME.raw, one per static tensor (BINVARSTART(NAME)); GNU tar
format (long-name entries) when a name does not fit ustar's 100 bytes."""
import io
import tarfile

from qnn.quantization.encodings import static_bytes


def write_bin(graph, path):
    long_names = any(len((t.name + ".raw").encode()) > 100 for t in graph.tensors.values() if t.kind == "static")
    with tarfile.open(path, "w", format=tarfile.GNU_FORMAT if long_names else tarfile.USTAR_FORMAT) as tar:
        for t in graph.tensors.values():
            if t.kind != "static":
                continue
            data = static_bytes(t)  # 4-bit weights packed two per byte
            info = tarfile.TarInfo(t.name + ".raw")
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
