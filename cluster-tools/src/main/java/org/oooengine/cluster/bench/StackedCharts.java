package org.oooengine.cluster.bench;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** Charts of one size drawn one above the other into a PNG file. */
public final class StackedCharts {
    private StackedCharts() {
    }

    public static void write(List<Chart<?, ?>> charts, int width, int height, Path png) {
        BufferedImage all = new BufferedImage(width, height * charts.size(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        for (int i = 0; i < charts.size(); i++) {
            g.drawImage(BitmapEncoder.getBufferedImage(charts.get(i)), 0, i * height, null);
        }
        g.dispose();
        try {
            ImageIO.write(all, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + png, e);
        }
    }
}
