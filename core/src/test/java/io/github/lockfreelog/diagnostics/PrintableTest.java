package io.github.lockfreelog.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class PrintableTest {

    @Test
    void controlCharactersAreShownNeverWritten() {
        assertThat(Printable.text("a\nb\rc\td\u001b[2Ke\u0085f\u2028g\u007f"))
                .isEqualTo("a\\nb\\rc\\td\\u001b[2Ke\\u0085f\\u2028g\\u007f");
    }

    @Test
    void printableTextIsReturnedAsItIs() {
        String text = "the folder /tmp/été (a link to ../x) is owned by nobody";
        assertThat(Printable.text(text)).isSameAs(text);
        assertThat(Printable.text(null)).isNull();
    }

    @Test
    void aCauseWithAControlCharacterAnywhereInItsChainIsShownWithItsStackTraces() {
        IOException inner = new IOException("/tmp/x\nFORGED");
        RuntimeException outer = new RuntimeException("plain", inner);
        Throwable shown = Printable.cause(outer);
        assertThat(shown).isNotSameAs(outer);
        assertThat(shown.toString()).isEqualTo("java.lang.RuntimeException: plain");
        assertThat(shown.getCause().toString()).isEqualTo("java.io.IOException: /tmp/x\\nFORGED");
        assertThat(shown.getStackTrace()).isEqualTo(outer.getStackTrace());
        assertThat(shown.getCause().getStackTrace()).isEqualTo(inner.getStackTrace());
        IOException plain = new IOException("fine");
        assertThat(Printable.cause(plain)).isSameAs(plain);
    }

    @Test
    void theLastErrorKeepsTheCauseWithoutAddressesOrCredentials() {
        String shown = Printable.withoutAddresses("Connection to node 1 (broker-1.example.com/10.0.0.7:9092) could not be"
                + " established; Principal = User:alice is not authorized; password=s3cret; "
                + "https://bob:pw@registry.example.com:8443/x; [fe80::1]:9093; at 12:00:00\nnext");
        assertThat(shown).isEqualTo("Connection to node 1 (<address>) could not be established; Principal ="
                + " User:<principal> is not authorized; password=<hidden>; https://<credentials>@<address>/x; <address>;"
                + " at 12:00:00\\nnext");
    }
}
