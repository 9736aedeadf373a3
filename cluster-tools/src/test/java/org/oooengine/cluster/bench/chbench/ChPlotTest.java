package org.oooengine.cluster.bench.chbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plot of CH-benCHmark runs: four charts one above the other, runs with gaps in their samples included. */
class ChPlotTest {
    @TempDir
    Path dir;

    @Test
    void drawsFourChartsOfTheRunsSideBySide() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode copies = json.readTree("{\"mode\":\"copies\",\"series\":["
                + "{\"t\":0,\"commits\":50,\"queries\":0,\"freshness\":null,\"lag_seconds\":null},"
                + "{\"t\":1,\"commits\":60,\"queries\":1,\"freshness\":0.99,\"lag_seconds\":1.5}]}");
        JsonNode again = json.readTree("{\"mode\":\"copies\",\"series\":["
                + "{\"t\":0,\"commits\":70,\"queries\":2,\"freshness\":1.0,\"lag_seconds\":0.0}]}");
        Path png = dir.resolve("chbench.png");
        ChPlot.write(List.of(copies, again), png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(900, image.getWidth());
        assertEquals(4 * 300, image.getHeight());

        // a run that records the longest query and the copies' work adds three charts
        JsonNode work = json.readTree("{\"mode\":\"htal\",\"series\":["
                + "{\"t\":0,\"commits\":70,\"queries\":2,\"freshness\":1.0,\"lag_seconds\":0.0,"
                + "\"longest_query_seconds\":1.5,\"delta_keys\":300,\"owed_commits\":12}]}");
        ChPlot.write(List.of(copies, work), png);
        assertEquals(7 * 300, ImageIO.read(png.toFile()).getHeight());
    }
}
