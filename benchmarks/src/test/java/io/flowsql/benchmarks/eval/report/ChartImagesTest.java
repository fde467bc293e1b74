package io.flowsql.benchmarks.eval.report;

import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's charts read their labels from the picture: each category's label sits under its own bar (the
 * label's ink, found in the drawn PNG below the bars, is centred within that bar's columns), even with many long
 * stage names.
 */
class ChartImagesTest {
    private static final List<String> STAGES = List.of("schema.retrieve", "opensearch.fewshot", "opensearch.extract",
            "opensearch.retrieve", "opensearch.generate", "opensearch.adherence", "opensearch.align", "candidates.execute",
            "opensearch.correct", "opensearch.vote");

    @Test
    void everyLabelSitsUnderItsOwnBar() throws Exception {
        List<Integer> values = List.of(120, 900, 3461, 40, 2100, 800, 300, 150, 1200, 20);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(
                ChartImages.bars("stage latency", "stage", "ms", STAGES, values))));
        Files.createDirectories(Path.of("target"));
        ImageIO.write(image, "png", Path.of("target", "chart-labels.png").toFile());

        List<int[]> bars = runs(columns(image, 0, image.getHeight(), ChartImagesTest::coloured), 1);
        assertThat(bars).as("one run of coloured columns per bar").hasSize(STAGES.size());
        int barsBottom = lowest(image, ChartImagesTest::coloured);
        int[] band = labelBand(image, barsBottom + 6);
        List<int[]> labels = runs(columns(image, band[0], band[1], ChartImagesTest::ink), 4);
        assertThat(labels).as("one block of label ink per bar (rows %d-%d)", band[0], band[1]).hasSize(STAGES.size());
        for (int i = 0; i < STAGES.size(); i++) {
            int centre = (labels.get(i)[0] + labels.get(i)[1]) / 2;
            assertThat(centre).as("label %s (columns %d-%d) under its bar (columns %d-%d)", STAGES.get(i),
                    labels.get(i)[0], labels.get(i)[1], bars.get(i)[0], bars.get(i)[1])
                    .isBetween(bars.get(i)[0], bars.get(i)[1]);
        }
    }

    interface PixelTest {
        boolean test(int rgb);
    }

    private static boolean coloured(int rgb) {
        int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
        return Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60;
    }

    private static boolean ink(int rgb) {
        int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
        return r + g + b < 3 * 140 && !coloured(rgb);
    }

    private static boolean[] columns(BufferedImage image, int fromRow, int toRow, PixelTest test) {
        boolean[] hit = new boolean[image.getWidth()];
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = fromRow; y < toRow && !hit[x]; y++) {
                hit[x] = test.test(image.getRGB(x, y));
            }
        }
        return hit;
    }

    /** Runs of true columns, two runs closer than {@code gap} columns joined. */
    private static List<int[]> runs(boolean[] hit, int gap) {
        List<int[]> runs = new ArrayList<>();
        for (int x = 0; x < hit.length; x++) {
            if (!hit[x]) {
                continue;
            }
            if (!runs.isEmpty() && x - runs.get(runs.size() - 1)[1] <= gap) {
                runs.get(runs.size() - 1)[1] = x;
            } else {
                runs.add(new int[] {x, x});
            }
        }
        return runs;
    }

    private static int lowest(BufferedImage image, PixelTest test) {
        for (int y = image.getHeight() - 1; y >= 0; y--) {
            for (int x = 0; x < image.getWidth(); x++) {
                if (test.test(image.getRGB(x, y))) {
                    return y;
                }
            }
        }
        throw new AssertionError("nothing drawn");
    }

    /** The rows of the tick labels: the first block of rows with ink, taller than a tick mark, below the axis. */
    private static int[] labelBand(BufferedImage image, int from) {
        int start = -1;
        for (int y = from; y <= image.getHeight(); y++) {
            boolean any = false;
            for (int x = 0; y < image.getHeight() && x < image.getWidth() && !any; x++) {
                any = ink(image.getRGB(x, y));
            }
            if (any && start < 0) {
                start = y;
            } else if (!any && start >= 0) {
                if (y - start > 8) {
                    return new int[] {start, y};
                }
                start = -1;  // the axis line or the tick marks
            }
        }
        throw new AssertionError("no label rows below the bars");
    }
}
