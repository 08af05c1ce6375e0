"""model.bin: an uncompressed ustar tar of NAME.raw, one per static tensor (BINVARSTART(NAME))."""
import io
import tarfile


def write_bin(graph, path):
    with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as tar:
        for t in graph.tensors.values():
            if t.kind != "static":
                continue
            data = t.data.tobytes()
            info = tarfile.TarInfo(t.name + ".raw")
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
