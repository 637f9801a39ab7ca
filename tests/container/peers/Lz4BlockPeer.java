// A real peer for tests/container/interop.rs: lz4-java's LZ4BlockOutputStream / LZ4BlockInputStream
// (the Debian package liblz4-java, /usr/share/java/lz4-java.jar). The tests compile it once with
// javac and run the class; it also runs as a single-file program:
//
//   java -cp /usr/share/java/lz4-java.jar tests/container/peers/Lz4BlockPeer.java compress BLOCK_SIZE IN OUT [IN OUT ...]
//   java -cp /usr/share/java/lz4-java.jar tests/container/peers/Lz4BlockPeer.java decompress IN OUT [IN OUT ...]
//
// `compress` writes one stream per file with lz4-java's defaults (fast compressor, xxh32
// checksum); `decompress` reads concatenated streams (stopOnEmptyBlock = false), as Spark does.

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;

public class Lz4BlockPeer {
    public static void main(String[] args) throws Exception {
        boolean compress = args[0].equals("compress");
        int first = compress ? 2 : 1;
        for (int i = first; i + 1 < args.length; i += 2) {
            byte[] input = Files.readAllBytes(Path.of(args[i]));
            ByteArrayOutputStream result = new ByteArrayOutputStream();
            if (compress) {
                try (OutputStream out = new LZ4BlockOutputStream(result, Integer.parseInt(args[1]))) {
                    out.write(input);
                }
            } else {
                InputStream in = new LZ4BlockInputStream(
                    new ByteArrayInputStream(input),
                    LZ4Factory.fastestInstance().fastDecompressor(),
                    XXHashFactory.fastestInstance().newStreamingHash32(0x9747b28c).asChecksum(),
                    false);
                in.transferTo(result);
            }
            Files.write(Path.of(args[i + 1]), result.toByteArray());
        }
    }
}
